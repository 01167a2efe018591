// msviz/js/bank.js: the quiz bank's widget: one question at a time, answered by a click or a choice.
//
// Python makes the questions, draws each one's picture (a PNG from msviz's renderer) and
// judges every answer by the rules; this part only shows what it is sent and sends back
// what the student chose: {event: "answer", index, value}, where value is a cell [row, col],
// a list of cells, or a choice's words. Cells are chosen on the picture with the pointer or
// the keyboard (arrows move a cursor, Space chooses, Enter answers); a question answered by
// several cells keeps them here until Answer. A choice is typed as what it says (3 for "3",
// 10 for "10", B or 0 for a blank, D or B for an order), then Enter; a click answers at once.
// N and P move to the next and previous question: the kernel then sends that question, and
// `shown` says which question the widget holds.
import { make, makeAnnouncer } from "./parts.js";

/** The cell under a point of the picture `img`, a board of `rows` x `cols`; null off it. */
export function pictureCellAt(img, rows, cols, clientX, clientY) {
  const box = img.getBoundingClientRect();
  if (!box.width || !box.height) return null;
  const r = Math.floor(((clientY - box.top) / box.height) * rows);
  const c = Math.floor(((clientX - box.left) / box.width) * cols);
  return r >= 0 && r < rows && c >= 0 && c < cols ? [r, c] : null;
}

/** A button of the bank's, with its words. */
function bankButton(words, control) {
  const button = make("button", "msviz-button", words);
  button.type = "button";
  button.dataset.control = control;
  return button;
}

/** An outline over cell [r, c] of the picture, in a board of `rows` x `cols` (percent, so it scales). */
function outline(kind, [r, c], rows, cols) {
  const mark = make("div", `msviz-bank-mark msviz-bank-${kind}`);
  Object.assign(mark.style, {
    top: `${(100 * r) / rows}%`,
    left: `${(100 * c) / cols}%`,
    width: `${100 / cols}%`,
    height: `${100 / rows}%`,
  });
  return mark;
}

/** The widget's parts, with their words: the head, the prompt, the picture, the choices, the cells' bar,
 *  the verdict and the line to keep. */
function bankParts(words) {
  const parts = {
    root: make("div", "msviz-stage msviz-bank"),
    title: make("div", "msviz-status"),
    score: make("div", "msviz-bank-score"),
    previous: bankButton("◀", "previous"),
    next: bankButton("▶", "next"),
    prompt: make("p", "msviz-bank-prompt"),
    img: make("img", "msviz-bank-picture"),
    marks: make("div", "msviz-bank-marks"),
    choices: make("div", "msviz-bank-choices"),
    picked: make("span", "msviz-bank-picked"),
    send: bankButton(words.answer_cells, "answer"),
    clear: bankButton(words.clear_cells, "clear"),
    verdict: make("p", "msviz-quiz-verdict msviz-bank-verdict"),
    keepLine: make("code", "msviz-bank-line"),
    described: make("p", "msviz-live"), // the picture in words, read with the prompt, not drawn
    live: make("div", "msviz-live"), // what the keyboard's cursor is on, said as it moves
  };
  const p = parts;
  p.root.tabIndex = 0;
  p.root.setAttribute("role", "group");
  p.live.setAttribute("aria-live", "polite");
  p.live.setAttribute("aria-atomic", "true");
  p.previous.setAttribute("aria-label", words.previous);
  p.next.setAttribute("aria-label", words.next);
  const id = `msviz-bank-${Math.random().toString(36).slice(2)}`;
  p.prompt.id = `${id}-prompt`;
  p.described.id = `${id}-picture`;
  p.root.setAttribute("aria-describedby", `${p.prompt.id} ${p.described.id}`);
  p.img.setAttribute("aria-describedby", p.described.id);
  p.board = make("div", "msviz-bank-board", p.img, p.marks);
  p.cellsBar = make("div", "msviz-bank-cells", p.send, p.clear, p.picked);
  p.verdict.setAttribute("aria-live", "polite");
  p.keep = make("div", "msviz-bank-keep", make("span", "", words.keep), " ", p.keepLine);
  const head = make("div", "msviz-head", p.previous, p.title, p.next, p.score);
  const keys = make("p", "msviz-bank-keys", words.keys);
  p.root.append(head, p.prompt, p.described, p.board, p.choices, p.cellsBar, p.verdict, p.keep, keys, p.live);
  return parts;
}

/** The choice of `offered` that a typed `key` names, after `typed` (so 1 then 0 is "10"); or "".
 *  B or 0 name a blank; a letter names the choice Python gave that key (`keys`: D and B for an order,
 *  whatever the language calls it), else the choice it begins. */
export function typedChoice(offered, typed, key, keys = {}) {
  const named = (text) => {
    const lower = text.toLowerCase();
    if (offered.includes(text)) return text;
    if (offered.includes("B") && (lower === "b" || text === "0")) return "B";
    const given = offered.find((choice) => keys[choice] === lower);
    if (given) return given;
    return offered.find((choice) => choice.toLowerCase().startsWith(lower) && /^[a-z]$/.test(lower)) || "";
  };
  return named(typed + key) || named(key);
}

/** Render the bank's widget into `el`; returns what undoes it. */
/**
 * Make the choice buttons anew (`list`, each answering with its words; `typed` pressed): the one
 * that had the focus (a click answers with it) keeps it, else the focus goes back to `root`.
 */
function drawChoices(choices, root, list, { typed, answer, shown }) {
  const active = root.getRootNode().activeElement;
  const focused = active && choices.contains(active) ? active.textContent : null;
  choices.replaceChildren(
    ...list.map((words) => {
      const button = bankButton(words, "choice");
      button.addEventListener("click", () => answer(words));
      button.setAttribute("aria-pressed", String(words === typed));
      return button;
    }),
  );
  choices.hidden = !shown;
  if (focused !== null) {
    const again = [...choices.querySelectorAll("button")].find((b) => b.textContent === focused);
    (again && !choices.hidden ? again : root).focus();
  }
}

export function renderBank({ model, el }) {
  const words = model.get("words");
  const parts = bankParts(words);
  const { root, title, score, previous, next, prompt, img, marks, board, choices, picked } = parts;
  const { send, clear, cellsBar, verdict, keepLine, keep, described, live } = parts;
  if (words.lang) root.setAttribute("lang", words.lang); // the language its words are in
  el.append(root);
  const voice = makeAnnouncer(live);

  let chosen = []; // the cells chosen (one, or several), kept until Answer or Enter
  let cursor = null; // the keyboard's cell
  let typed = ""; // the choice typed so far, answered by Enter

  const size = () => [model.get("rows"), model.get("cols")];
  // An answer is to the question drawn (`shown`), never to one asked for and not yet sent.
  const ready = () => model.get("shown") === model.get("index");
  const answer = (value) => ready() && model.send({ event: "answer", index: model.get("shown"), value });
  const go = (step) => {
    const i = model.get("shown") + step;
    if (i < 0 || i >= model.get("total")) return;
    model.set("index", i);
    model.save_changes();
  };
  // A click on the picture answers a one-cell question at once; Space only chooses the cell.
  const choose = (cell, { byKey = false } = {}) => {
    if (model.get("answered_by") === "cell" && !byKey) return answer(cell);
    if (model.get("answered_by") === "cell") {
      chosen = [cell];
      return drawMarks();
    }
    if (model.get("answered_by") !== "cells") return;
    const at = chosen.findIndex(([r, c]) => r === cell[0] && c === cell[1]);
    chosen = at >= 0 ? chosen.filter((_, j) => j !== at) : [...chosen, cell];
    drawMarks();
  };

  /** Say what the cell under the cursor shows, as the picture draws it (and whether it is chosen). */
  function sayCursor() {
    if (!cursor) return;
    const [r, c] = cursor;
    let what = model.get("cell_words")[r * model.get("cols") + c] || "";
    if (chosen.some(([i, j]) => i === r && j === c)) what = words.cell_chosen.replace("{what}", what);
    voice.say(words.cursor.replace("{row}", r).replace("{col}", c).replace("{what}", what));
  }

  function drawMarks() {
    const [rows, cols] = size();
    marks.replaceChildren(
      ...chosen.map((cell) => outline("chosen", cell, rows, cols)),
      ...(cursor ? [outline("cursor", cursor, rows, cols)] : []),
    );
    const listed = chosen.map(([r, c]) => `(${r}, ${c})`).join(words.separator || ", ");
    picked.textContent = chosen.length ? words.picked.replace("{cells}", listed) : "";
  }

  function draw() {
    const i = model.get("shown");
    const by = model.get("answered_by");
    title.textContent = words.question.replace("{number}", i + 1).replace("{total}", model.get("total"));
    score.textContent = model.get("score_text");
    previous.disabled = i <= 0;
    next.disabled = i >= model.get("total") - 1;
    prompt.textContent = model.get("prompt");
    img.src = model.get("picture");
    img.alt = model.get("prompt");
    described.textContent = model.get("description");
    root.setAttribute("aria-label", model.get("group_name"));
    board.dataset.answeredBy = by;
    drawChoices(choices, root, model.get("choices"), { typed, answer, shown: by === "choice" });
    cellsBar.hidden = by !== "cells";
    verdict.textContent = model.get("verdict");
    verdict.dataset.verdict = model.get("verdict_kind");
    keepLine.textContent = model.get("keep");
    keep.hidden = !model.get("keep");
    drawMarks();
  }

  function onNewQuestion() {
    chosen = [];
    cursor = null;
    typed = "";
    draw();
  }

  function markTyped() {
    for (const button of choices.querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button.textContent === typed));
    }
  }

  function onKey(event) {
    if (event.target !== root && event.target.tagName !== "IMG") return; // a button's own keys stay its own
    const [rows, cols] = size();
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    const key = event.key;
    let handled = true;
    const by = model.get("answered_by");
    if (key in moves && by !== "choice") {
      const [dr, dc] = moves[key];
      const [r, c] = cursor || [0, 0]; // the first press moves from the top left corner
      cursor = [Math.min(Math.max(r + dr, 0), rows - 1), Math.min(Math.max(c + dc, 0), cols - 1)];
      drawMarks();
      sayCursor();
    } else if (key === " " && cursor) {
      choose(cursor, { byKey: true });
      sayCursor();
    }
    else if (key === "Enter" && by === "cells") answer(chosen);
    else if (key === "Enter" && by === "cell" && (chosen[0] || cursor)) answer(chosen[0] || cursor);
    else if (key === "Enter" && by === "choice" && typed) answer(typed);
    else if (by === "choice" && key.length === 1 && typedChoice(model.get("choices"), typed, key, model.get("choice_keys"))) {
      typed = typedChoice(model.get("choices"), typed, key, model.get("choice_keys"));
      markTyped();
    } else if (key === "n" || key === "N") go(1);
    else if (key === "p" || key === "P") go(-1);
    else handled = false;
    if (handled) {
      event.preventDefault();
      event.stopPropagation(); // the notebook's own shortcuts do not see the quiz's keys
    }
  }

  const onPicture = (event) => {
    const cell = pictureCellAt(img, model.get("rows"), model.get("cols"), event.clientX, event.clientY);
    if (cell) choose(cell);
  };
  previous.addEventListener("click", () => go(-1));
  next.addEventListener("click", () => go(1));
  send.addEventListener("click", () => answer(chosen));
  clear.addEventListener("click", () => {
    chosen = [];
    drawMarks();
  });
  img.addEventListener("click", onPicture);
  root.addEventListener("keydown", onKey);
  const watched = ["shown", "picture", "prompt", "choices", "answered_by", "description", "group_name"];
  const said = ["verdict", "verdict_kind", "keep", "score_text"];
  model.on("change:index", onNewQuestion);
  for (const name of watched) model.on(`change:${name}`, draw);
  for (const name of said) model.on(`change:${name}`, draw);
  draw();
  return () => {
    model.off("change:index", onNewQuestion);
    for (const name of [...watched, ...said]) model.off(`change:${name}`, draw);
    voice.dispose();
    root.remove();
  };
}

export default { render: renderBank };
