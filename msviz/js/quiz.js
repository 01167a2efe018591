// msviz/js/quiz.js: the quiz: a click on the board is a guess of the next step, judged here.
import { asksReturn, fill, isRight, notATry, verdict, where } from "./words.js";

/** The quiz: a click is a guess of the next step (or, after a return, of the call that goes on),
 *  judged here; the kernel only reads the score back. `view` tells what the view shows:
 *  {reveal(), target(), last(), mode(), request()}; `parts` are the quiz's elements:
 *  {rule, verdict, score, said}. Returns {on, returning, position, draw, guess, mark, forget}. */
export function makeQuiz(model, view, parts) {
  let told = null; // the last verdict: {step it is shown at, kind, cell guessed, text}
  const on = () => Boolean(model.get("quiz")) && view.reveal() !== null && view.reveal().n > 0 && view.mode() === "visits";
  /** The last step the quiz asks for: the reveal's last, or before it if the quiz asks fewer questions. */
  const end = () => ((model.get("quiz_last") ?? -1) >= 0 ? Math.min(model.get("quiz_last"), view.last()) : view.last());
  /** Whether the question now is whose call goes on after a return (not yet answered at this step). */
  const returning = () => on() && !model.get("quiz_returned") && asksReturn(view.reveal(), view.target()) && view.target() < end();

  /** Once a return is answered, the picture is the moment before the next call: the stack has
   *  returned to the call that goes on. Otherwise null: the step's own picture. */
  function position(p) {
    const r = view.reveal();
    if (!on() || !model.get("quiz_returned") || !asksReturn(r, p) || p >= end()) return null;
    return [r.visitEvent[p + 1] - 1, p];
  }

  /** The rule of this order above the board (or, after a return, its question); under it, the last
   *  verdict (or the question) and the score. */
  function draw(p) {
    const shown = on();
    parts.rule.style.display = parts.said.style.display = shown ? "" : "none";
    if (!shown) return;
    const r = view.reveal();
    const words = model.get("words");
    const score = { right: model.get("quiz_right") || 0, tries: model.get("quiz_tries") || 0 };
    const over = p >= end();
    const now = told && told.step === p ? told : null;
    parts.rule.textContent = returning()
      ? fill(words, "quiz_return_ask", where(r, p))
      : fill(words, r.order === "bfs" ? "quiz_rule_bfs" : "quiz_rule_dfs", {});
    parts.verdict.textContent = now ? now.text : over || returning() ? "" : fill(words, "quiz_ask", {});
    // The verdict's kind, which the style sheet colours in the host's theme (its words say it too).
    parts.verdict.dataset.verdict = !now || notATry(now.kind) ? "" : isRight(now.kind) ? "right" : "wrong";
    parts.score.textContent = fill(words, over ? (end() < view.last() ? "quiz_done" : "quiz_over") : "quiz_score", score);
  }

  /** Judge the guess of cell i: say right or wrong, show the true next step, count the score. */
  function guess(i) {
    const k = Math.max(-1, Math.min(model.get("step"), view.last()));
    if (k >= end()) return; // the quiz is over: nothing left to guess
    const back = returning(); // the question: whose call goes on after this step's call returns
    const [kind, said] = verdict(model.get("words"), view.reveal(), k, i, back);
    if (notATry(kind)) { // the student clicked a cell that cannot be the answer: uncovered, or (a return) hidden
      told = { step: k, kind, cell: i, text: said };
      view.request();
      return;
    }
    told = { step: back ? k : k + 1, kind, cell: i, text: said };
    model.set("quiz_tries", (model.get("quiz_tries") || 0) + 1);
    if (isRight(kind)) model.set("quiz_right", (model.get("quiz_right") || 0) + 1);
    if (back) model.set("quiz_returned", true);
    else {
      model.set("quiz_returned", false);
      model.set("step", k + 1);
    }
    model.save_changes();
    view.request();
  }

  /** The verdict to mark on the board at position p: the cell guessed, unless the guess was not a
   *  try or was the next cell itself (then drawn as the current one); null for none. */
  const mark = (p) => (on() && told && told.step === p && !notATry(told.kind) && told.kind !== "quiz_right" ? told : null);
  /** What a screen reader hears of the quiz: the last verdict, and a return's question. */
  const said = () => (on() ? [parts.verdict.textContent, returning() ? parts.rule.textContent : ""] : []);
  return { on, returning, position, draw, guess, mark, said, forget: () => { told = null; } };
}

