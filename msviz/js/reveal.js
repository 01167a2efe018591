// msviz/js/reveal.js: one reveal read from a model's traits, and what any event of it shows.
//
// The front end is plain ES modules (no build step, nothing fetched), joined into one by
// msviz/frontend.py, which anywidget loads and an exported page embeds.
// The kernel sends one reveal once, as binary arrays (see msviz/view.py for
// each trait); this module draws any step of it by itself, so sliders and
// Play never wait for the kernel.
//
// Positions and events. The reveal is a timeline of events: every call and
// return (DFS), or every enqueue and dequeue (BFS), two per revealed cell. The
// `step` trait is a position: in mode "visits" the k-th revealed cell (shown
// as event visit_event[k]), in mode "events" the event itself.
//
// How event e is drawn. Cell i shows
//   - its final symbol if it was revealed by then (0 <= reveal_event[i] <= e),
//     else its symbol before the click (hidden cells stay raised);
//   - an amber fill in a black border if it is the cell of this position;
//   - an outline if it waits on the stack or in the queue
//     (enter_event[i] <= e < leave_event[i]).
// Each combination is a small tile ("sprite") drawn once per cell size; the
// board is a pixel buffer into which tiles are copied. Moving e changes only
// the cells whose reveal, enter or leave event lies between the old e and the
// new one: each event concerns one cell, the cell of its step, so one step
// redraws a handful of cells and a jump redraws at most the whole board.
// Over the board, a second canvas draws the call chain as a path of arrows
// (DFS) or the queue numbered from its front (BFS), O(cells waiting).
//
// The same module runs in an exported page (msviz/export.py), where a small
// stand-in for the widget model is given the same traits.

export const HIDDEN = 0; // codes as in msviz.render.CODES: E M B 1..8 X
export const CODE_SYMBOLS = "EMB12345678X"; // the symbol of each code up to X
export const MINE = 1;
export const BLANK = 2;
export const BOOM = 11; // X, the mine that was clicked
export const SHOWN_MINE = 12; // a hidden mine uncovered when the game is lost
export const FLAG = 13; // a flag on a hidden cell
export const TILES = 14; // tiles per variant; variants: plain, current, outlined, both
export const LEGIBLE_CSS_PX = 12; // below this, a digit is drawn as its colour

// ---- reading traits --------------------------------------------------------

/** Return a binary trait (a DataView, or nothing yet) as a typed array of `Type`. */
export function typed(model, name, Type) {
  const view = model.get(name);
  if (!view || !view.byteLength) return new Type(0);
  const size = Type.BYTES_PER_ELEMENT;
  if (view.byteOffset % size === 0) return new Type(view.buffer, view.byteOffset, view.byteLength / size);
  // Copy: a DataView's offset need not be aligned for Int32Array.
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
  return new Type(bytes.buffer);
}

/** The number of indices j in [0, n) with key(j) <= x, for a key that never falls as j grows
 *  (a binary search: O(log n), and no array kept for it). */
export function countUpTo(n, key, x) {
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(mid) <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Everything about one reveal that the drawing needs, read from the model. */
export function readReveal(model) {
  const rows = model.get("rows");
  const cols = model.get("cols");
  const cells = rows * cols;
  const r = {
    rows,
    cols,
    order: model.get("order"),
    click: model.get("click_cell"),
    start: typed(model, "start", Uint8Array),
    final: typed(model, "final", Uint8Array),
    reveal: typed(model, "reveal_event", Int32Array),
    enter: typed(model, "enter_event", Int32Array),
    leave: typed(model, "leave_event", Int32Array),
    cell: typed(model, "step_cell", Int32Array),
    parent: typed(model, "parent_step", Int32Array),
    visitEvent: typed(model, "visit_event", Int32Array),
    label: typed(model, "event_label", Uint8Array),
    eventStep: typed(model, "event_step", Int32Array),
    // What Python worked out of each step for the words: its depth (DFS) or layer (BFS), its
    // hidden empty neighbours once revealed, the cells it led to (calls made, or cells queued).
    depth: typed(model, "step_depth", Int32Array),
    hidden: typed(model, "step_hidden", Uint8Array),
    children: typed(model, "step_children", Uint8Array),
    // A student's run (msviz.Recording.replay): a step and an event a write, a cell perhaps
    // written again; each step's tile code (its depth is the stack depth of the student's calls).
    replay: Boolean(model.get("replay")),
    code: typed(model, "step_code", Uint8Array),
  };
  r.n = r.cell.length;
  r.m = r.eventStep.length;
  if (r.start.length !== cells) r.start = new Uint8Array(cells);
  if (r.final.length !== cells) r.final = r.start;
  for (const name of ["reveal", "enter", "leave"]) {
    if (r[name].length !== cells) r[name] = new Int32Array(cells).fill(-1);
  }
  if (r.depth.length !== r.n) r.depth = new Int32Array(r.n);
  if (r.hidden.length !== r.n) r.hidden = new Uint8Array(r.n);
  if (r.children.length !== r.n) r.children = new Uint8Array(r.n);
  if (r.replay) readWrites(r);
  return r;
}

// Breadth-first, the queue is first in, first out: steps enter it in order and leave it in
// order. So how many have entered or left it by an event are binary searches over the
// per-step arrays, with nothing kept per event (a million cells need no more memory).

/** Breadth-first: how many steps have entered the queue (`enter`) or left it (`leave`) by event e. */
export function queuedBy(r, which, e) {
  return countUpTo(r.n, (k) => r[which][r.cell[k]], e);
}

/** The codes of the event labels, in the order of msviz.EVENT_LABELS. */
export const LABEL = { call: 0, return: 1, enqueue: 2, dequeue: 3, write: 4 };

/** A student's run: check its per-step arrays, and list the steps of each cell written more than once. */
export function readWrites(r) {
  if (r.code.length !== r.n) r.code = Uint8Array.from(r.cell, (i) => r.final[i]);
  r.recursed = r.depth.some((d) => d > 0);
  const count = new Int32Array(r.rows * r.cols);
  for (const i of r.cell) count[i]++;
  r.writesOf = new Map(); // cell -> its steps, in order (only cells written again)
  r.cell.forEach((i, k) => {
    if (count[i] > 1) (r.writesOf.get(i) || r.writesOf.set(i, []).get(i)).push(k);
  });
}

/** The tile code of cell i right after event e: its symbol before the click, or the last written. */
export function codeAt(r, i, e) {
  const v = r.reveal[i];
  if (v < 0 || v > e) return r.start[i];
  if (!r.replay) return r.final[i];
  const steps = r.writesOf.get(i);
  if (!steps) return r.code[r.eventStep[v]];
  let last = steps[0]; // a replay has an event a step: step k is written at event k
  for (const k of steps) if (k <= e) last = k;
  return r.code[last];
}

/** Return [event, step of the current cell] shown at position p of mode `mode`. */
export function position(r, mode, p) {
  if (p < 0) return [-1, -1];
  if (mode === "events") {
    const e = Math.min(p, r.m - 1);
    return [e, r.eventStep[e]];
  }
  const k = Math.min(p, r.n - 1);
  return [r.visitEvent[k], k];
}

/** The kind of event e, as msviz.solutions names them: its label and what its cell becomes. */
export function eventKind(r, e) {
  const k = r.eventStep[e];
  const label = r.label[e];
  if (label === LABEL.enqueue) return k === 0 ? "enqueue_click" : "enqueue";
  const code = r.final[r.cell[k]];
  const symbol = code === BOOM ? "mine" : code === BLANK ? "blank" : "digit";
  return `${["call", "return", "enqueue", "dequeue"][label]}_${symbol}`;
}

/** How many steps wait after event e: calls on the stack, or cells in the queue. O(1). */
export function waitingCount(r, e) {
  if (e < 0 || r.m === 0 || r.replay) return 0; // a recording does not see the student's stack or queue
  if (r.order === "bfs") return queuedBy(r, "enter", e) - queuedBy(r, "leave", e);
  const k = r.eventStep[e];
  const top = r.label[e] === LABEL.call ? k : r.parent[k];
  return top < 0 ? 0 : r.depth[top] + 1;
}

/** Return the steps waiting after event e: the call chain from the click to the
 *  call on top (DFS), or the queue from its front to its back (BFS); with
 *  `most`, only that many, nearest the top of the stack or the front of the queue. */
export function waiting(r, e, most = Infinity) {
  const n = Math.min(waitingCount(r, e), most);
  const out = [];
  if (n === 0) return out;
  if (r.order === "bfs") {
    // First in, first out: the queue is the steps enqueued and not yet dequeued.
    for (let k = queuedBy(r, "leave", e); out.length < n; k++) out.push(k);
    return out;
  }
  const k = r.eventStep[e];
  for (let top = r.label[e] === LABEL.call ? k : r.parent[k]; out.length < n; top = r.parent[top]) out.push(top);
  return out.reverse();
}

