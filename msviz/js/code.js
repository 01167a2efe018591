// msviz/js/code.js: the code beside the board, its running line highlighted, and under it the
// stack's frames or the queue.
import { make } from "./parts.js";
import { BLANK, BOOM, CODE_SYMBOLS, LABEL, eventKind, queuedBy, revealedAt, waiting, waitingCount } from "./reveal.js";
import { fill } from "./words.js";

/** The code beside (or under) the board: its lines numbered, the line that runs highlighted and
 *  kept in the middle of the code's window, and under it the stack's frames or the queue.
 *  Returns {build, draw(r, mode, e, cur), follow, line()}. */
export function makeCodePanel(model, code, frames, side) {
  let line = 0; // the line highlighted, 0 for none

  /** Write the code's lines afresh (its source changed). */
  function build() {
    const source = model.get("code");
    code.replaceChildren();
    side.style.display = source ? "" : "none";
    source.replace(/\n$/, "").split("\n").forEach((text, i) => {
      // A long line wraps, its rest indented four past the line's own indent.
      const body = make("code", "", text);
      const hang = text.length - text.trimStart().length + 4;
      body.style.paddingLeft = `${hang}ch`;
      body.style.textIndent = `-${hang}ch`;
      code.append(make("span", "", make("i", "", String(i + 1)), body));
    });
    line = 0;
  }

  /** Keep the running line in the middle of the code's window (the code scrolls, never the notebook). */
  function follow() {
    const span = code.children[line - 1];
    if (!span || code.scrollHeight <= code.clientHeight) return;
    code.scrollTop = span.offsetTop - code.offsetTop - (code.clientHeight - span.offsetHeight) / 2;
  }

  /** Highlight the line that runs at event e (or, one step per cell, where cell `cur` gets its symbol). */
  function draw(r, mode, e, cur) {
    if (!model.get("code") || !r) return;
    const at = mode === "events" ? e : cur >= 0 ? revealedAt(r, r.cell[cur]) : -1;
    const next = at >= 0 ? model.get("code_lines")[eventKind(r, at)] || 0 : 0;
    if (next !== line) {
      if (line) code.children[line - 1]?.classList.remove("msviz-on");
      if (next) code.children[next - 1]?.classList.add("msviz-on");
      line = next;
    }
    follow(); // also after the layout changed
    const rows = frameRows(r, e, model.get("words"), (model.get("neighbors") || []).length);
    frames.replaceChildren(...rows.map(([text, running]) => make("div", running ? "msviz-frame msviz-on" : "msviz-frame", text)));
  }
  return { build, draw, follow, line: () => line };
}

/** The rows under the code after event e, each [text, running]: depth-first, the call that just
 *  returned (if one did), then each call on the stack, top first (the running one first), with its
 *  own variables: its cell, the mines it counted, the neighbour its loop is on (`step_turn`, sent
 *  by Python); breadth-first, the cell last taken from the queue, the neighbour its loop is on and
 *  the queue, front first. A dozen calls or cells, and how many more. */
export function frameRows(r, e, words, of) {
  const total = waitingCount(r, e);
  const steps = waiting(r, e, 13); // the dozen nearest the top or the front, and the one under them
  const at = (k) => ({ row: Math.floor(r.cell[k] / r.cols), col: r.cell[k] % r.cols });
  const mines = (k) => Math.max(0, r.final[r.cell[k]] - BLANK); // a digit's count, or 0 for B
  const turn = (k) => (k < r.turn.length ? r.turn[k] : 0);
  const rows = [];
  if (r.order === "bfs") {
    const taken = e >= 0 ? queuedBy(r, "leave", e) - 1 : -1;
    if (taken >= 0) {
      const code = r.final[r.cell[taken]];
      rows.push([fill(words, "frame_taken", { ...at(taken), mines: mines(taken), value: CODE_SYMBOLS[code] }), true]);
    }
    const queued = e >= 0 && r.label[e] === LABEL.enqueue ? r.eventStep[e] : -1;
    if (queued > 0) {
      const child = at(queued);
      rows.push([fill(words, "frame_looking", { turn: turn(queued), of, child_row: child.row, child_col: child.col }), false]);
    }
    const shown = steps.slice(0, 12);
    rows.push([fill(words, "frames_queue", { waiting: total }), false]);
    // A cell's two numbers never part at the end of a line (a no-break space between them).
    const more = total - shown.length;
    rows.push([shown.map((k) => `(${at(k).row},\u00a0${at(k).col})`).join(" ") + (more > 0 ? " " + fill(words, "frames_more", { more }) : ""), false]);
    return rows;
  }
  const shown = steps.slice(-12);
  rows.push([fill(words, "frames_stack", { calls: total }), false]);
  const returned = e >= 0 && r.label[e] === LABEL.return ? r.eventStep[e] : -1;
  if (returned >= 0) rows.push([fill(words, "frame_returned", at(returned)), false]);
  for (let j = steps.length - 1; j >= steps.length - shown.length; j--) {
    const k = steps[j];
    const child = j + 1 < steps.length ? steps[j + 1] : -1;
    const values = { ...at(k), mines: mines(k), of };
    const code = r.final[r.cell[k]];
    let said;
    if (child >= 0) said = fill(words, "frame_calling", { ...values, turn: turn(child), child_row: at(child).row, child_col: at(child).col });
    else if (returned >= 0) said = fill(words, "frame_back", { ...values, turn: turn(returned) });
    else said = fill(words, code === BLANK ? "frame_blank" : code === BOOM ? "frame_mine" : "frame_digit", values);
    rows.push([said, j === steps.length - 1]);
  }
  if (total > shown.length) rows.push([fill(words, "frames_more", { more: total - shown.length }), false]);
  return rows;
}
