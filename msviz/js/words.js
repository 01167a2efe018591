// msviz/js/words.js: what the view says, filled from Python's templates (msviz.words): the
// captions of a step or an event, and the quiz's verdicts, judged by msviz.words' rules.
import { BLANK, BOOM, CODE_SYMBOLS, HIDDEN, LABEL, MINE, revealedAt, waitingCount } from "./reveal.js";

/** The plural kind of count n in the view's language: Python sends the kind of each count below
 *  200 (words.plural); a larger count has the kind of 100 plus its last two digits. */
export function pluralKind(words, n) {
  const kinds = words.plural || [1, 0];
  const k = Math.abs(Math.trunc(Number(n))) || 0;
  return kinds[k < kinds.length ? k : 100 + (k % 100)] ?? kinds[kinds.length - 1];
}

/** Fill template `name` as msviz.words.fill does: {x} by value; a phrase with a count
 *  ({forms, count}, from Python) takes the form of its count's kind first. */
export function fill(words, name, values) {
  const phrase = words[name];
  const template = typeof phrase === "string" ? phrase : phrase.forms[pluralKind(words, values[phrase.count])];
  return template.replace(/\{(\w+)\}/g, (_, key) => (key in values ? String(values[key]) : `{${key}}`));
}

/** The cell of step k as {row, col}, and its caller's as {parent_row, parent_col}. */
export function where(r, k) {
  const i = r.cell[k];
  const p = r.parent[k];
  const at = { row: Math.floor(i / r.cols), col: i % r.cols };
  if (p >= 0) Object.assign(at, { parent_row: Math.floor(r.cell[p] / r.cols), parent_col: r.cell[p] % r.cols });
  return at;
}

/** Say in words what happens at step k (msviz.words.caption, in JavaScript). */
export function caption(words, r, k) {
  if (r.replay) return writeCaption(words, r, k);
  const click = `(${r.click[0]}, ${r.click[1]})`;
  if (r.n === 0) return fill(words, "nothing", { click });
  if (k < 0) return fill(words, "before", { click });
  const at = where(r, k);
  const place = fill(words, "parent_row" in at ? "reached" : "cell", at);
  const code = r.final[r.cell[k]];
  if (code === BOOM) return fill(words, "mine", { step: k, where: place });
  let said;
  if (code === BLANK) {
    said = fill(words, "blank", { step: k, where: place });
    if (r.order === "bfs") said += fill(words, "bfs_children", { children: r.children[k] });
    else said += childrenWords(words, r, k);
  } else {
    const mines = code - BLANK;
    said = fill(words, "digit", { step: k, where: place, mines, value: String(mines) });
  }
  return said + fill(words, `${r.order}_frontier`, { frontier: waitingCount(r, r.visitEvent[k]) });
}

/** Say what a student's run does at write k (msviz.words.write_caption, in JavaScript):
 *  only what the recording saw. */
export function writeCaption(words, r, k) {
  if (r.n === 0) return fill(words, "wrote_nothing", {});
  if (k < 0) return fill(words, "before", { click: `(${r.click[0]}, ${r.click[1]})` });
  const i = r.cell[k];
  const code = r.code[k];
  const at = { step: k, row: Math.floor(i / r.cols), col: i % r.cols, value: CODE_SYMBOLS[code] };
  let said = fill(words, code === HIDDEN ? "write_mark" : "write", at);
  const steps = r.writesOf.get(i) || [];
  const before = steps.filter((j) => j < k).pop();
  if (before !== undefined) {
    const held = r.code[before] === HIDDEN ? words.a_mark : CODE_SYMBOLS[r.code[before]];
    said += fill(words, r.code[before] === code ? "write_same" : "write_again", { before: held });
  }
  if (r.recursed) said += fill(words, "write_depth", { frames: r.depth[k] + 1 });
  return said;
}

/** Say whom blank step k will call: its hidden empty neighbours once it is revealed (a call is its visit). */
export function childrenWords(words, r, k) {
  const hidden = r.hidden[k];
  return hidden ? fill(words, "dfs_children", { hidden }) : fill(words, "dfs_no_children", {});
}

/** Say in words what happens at event e (msviz.words.event_caption, in JavaScript). */
export function eventCaption(words, r, e) {
  if (r.replay) return writeCaption(words, r, e); // an event a write
  const click = `(${r.click[0]}, ${r.click[1]})`;
  if (r.m === 0) return fill(words, "nothing", { click });
  if (e < 0) return fill(words, "before", { click });
  const k = r.eventStep[e];
  const at = where(r, k);
  const code = r.final[r.cell[k]];
  const mines = code - BLANK;
  const frontier = waitingCount(r, e);
  const label = r.label[e];
  if (label === LABEL.call) {
    let said = fill(words, "event_call", { event: e, ...at, by: "parent_row" in at ? fill(words, "event_by", at) : "" });
    if (code === BOOM) said += fill(words, "event_call_mine", {});
    else if (code === BLANK) said += fill(words, "event_call_blank", {}) + childrenWords(words, r, k);
    else said += fill(words, "event_call_digit", { mines, value: String(mines) });
    return said + fill(words, "event_stack", { frontier });
  }
  if (label === LABEL.return) {
    if (!("parent_row" in at)) return fill(words, "event_return_last", { event: e, ...at });
    return fill(words, "event_return", { event: e, ...at }) + fill(words, "event_stack", { frontier });
  }
  if (label === LABEL.enqueue) return fill(words, "event_enqueue", { event: e, ...at }) + fill(words, "event_queue", { frontier });
  let said = fill(words, "event_dequeue", { event: e, ...at });
  if (code === BOOM) said += fill(words, "event_dequeue_mine", {});
  else if (code === BLANK) said += fill(words, "event_dequeue_blank", {});
  else said += fill(words, "event_dequeue_digit", { mines, value: String(mines) });
  return said + fill(words, "event_queue", { frontier });
}

// ---- the quiz: predict the next cell ---------------------------------------

/** The step that reveals cell i in this reveal, -1 for none. */
export function stepOf(r, i) {
  const e = revealedAt(r, i);
  return e >= 0 ? r.eventStep[e] : -1;
}

/** Judge the guess that cell i is revealed next, while step k is shown
 *  (msviz.words.quiz_judge): return the name of the verdict's template. */
export function judge(r, k, i) {
  const s = stepOf(r, i);
  if ((r.start[i] !== HIDDEN && r.start[i] !== MINE) || (s >= 0 && s <= k)) return "quiz_revealed";
  if (s === k + 1) return "quiz_right";
  if (r.order !== "bfs") return "quiz_wrong_dfs";
  return s >= 0 && r.depth[s] === r.depth[k + 1] ? "quiz_layer" : "quiz_wrong_bfs"; // depth: the BFS layer
}

/** Whether, depth-first, the call of step k returns before the next call (msviz.words.quiz_asks_return). */
export function asksReturn(r, k) {
  return r.order !== "bfs" && k >= 0 && k < r.n - 1 && r.parent[k + 1] !== k;
}

/** Judge the guess that cell i is the call that goes on after step k returns
 *  (msviz.words.quiz_judge with returning=True). */
export function judgeReturn(r, k, i) {
  const s = stepOf(r, i);
  if ((r.start[i] === HIDDEN || r.start[i] === MINE) && !(s >= 0 && s <= k)) return "quiz_return_hidden";
  return s === r.parent[k + 1] ? "quiz_return_right" : "quiz_return_wrong";
}

/** Return [the verdict's template, the verdict] on guessing cell i while step k is shown; with
 *  `returning`, on the call that goes on after step k returns (msviz.words.quiz_verdict, in JavaScript). */
export function verdict(words, r, k, i, returning = false) {
  const kind = returning ? judgeReturn(r, k, i) : judge(r, k, i);
  const next = r.cell[returning ? r.parent[k + 1] : k + 1];
  const at = { row: Math.floor(i / r.cols), col: i % r.cols, next_row: Math.floor(next / r.cols), next_col: next % r.cols };
  return [kind, fill(words, kind, at)];
}

/** Whether a verdict counts as right: the exact next cell, (BFS) a cell of its layer, or the call that goes on. */
export const isRight = (kind) => kind === "quiz_right" || kind === "quiz_layer" || kind === "quiz_return_right";
/** The verdicts that are not a try: a click on a cell that cannot be the answer's kind. */
export const notATry = (kind) => kind === "quiz_revealed" || kind === "quiz_return_hidden";

