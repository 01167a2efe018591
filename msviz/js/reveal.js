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

/** Reveals read ahead of their first drawing (readSoon), by their `step_cell` trait: a new reveal
 *  is a new array, so an entry is never stale. */
const READ_AHEAD = new WeakMap();

/** Everything about one reveal that the drawing needs, read from the model: what Python sent, and
 *  the timeline worked out from it (readTimeline); at once, unless it was read ahead (readSoon). */
export function readReveal(model) {
  const ahead = READ_AHEAD.get(model.get("step_cell"));
  if (ahead) return ahead;
  const r = fitted(readArrays(model));
  readTimeline(r);
  if (r.replay) readWrites(r);
  return r;
}

/** Read the reveal of `model` ahead of its first drawing, a slice at a time with `pause()` (a
 *  promise: the page breathes) between slices, so that a million cells never hold the page for
 *  long; readReveal then finds it read. A reveal read first from its start (`first`, readFirst's)
 *  is filled in: a view drawing it draws every event from then on. */
export async function readSoon(model, pause, first = null, slice = 1 << 18) {
  const key = model.get("step_cell");
  if (!key || (READ_AHEAD.has(key) && !READ_AHEAD.get(key).partial)) return;
  const r = fitted(readArrays(model));
  const steps = timeline(r, slice);
  while (!steps.next().done) await pause();
  if (r.replay) readWrites(r);
  const held = first || READ_AHEAD.get(key);
  READ_AHEAD.set(key, held ? Object.assign(held, r, { partial: false }) : r);
}

/** Read only the first `events` events of `model`'s reveal, at once: enough to draw any of them (a
 *  step entered later is not entered yet; one entered and not left waits), so that a big page
 *  shows its first picture before the rest is read, or even inflated: the model may hold only the
 *  start of each per-event and per-step array (its first `events` entries at least). readSoon then
 *  fills the same object in. Returns that reveal, or null for a student's run (read whole). */
export function readFirst(model, events) {
  const key = model.get("step_cell");
  const r = readArrays(model);
  if (!key || r.replay) return null;
  const m = Math.min(events, r.m);
  let entered = 0;
  for (let e = 0; e < m; e++) if (r.label[e] === LABEL.call || r.label[e] === LABEL.enqueue) entered++;
  Object.assign(r, { label: r.label.subarray(0, m), cell: r.cell.subarray(0, entered), m, n: entered });
  r.hidden = r.hidden.subarray(0, entered);
  r.turn = r.turn.subarray(0, entered);
  readTimeline(fitted(r));
  r.partial = true;
  READ_AHEAD.set(key, r);
  return r;
}

/** What Python sent of one reveal, as typed arrays (its timeline not yet read). */
function readArrays(model) {
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
    cell: typed(model, "step_cell", Int32Array),
    label: typed(model, "event_label", Uint8Array),
    // What Python worked out of each step's cell for the words, by the game's rules: its hidden
    // empty neighbours once revealed.
    hidden: typed(model, "step_hidden", Uint8Array),
    // Which neighbour of its caller's loop reached each step (1-based; 0 for the click).
    turn: typed(model, "step_turn", Uint8Array),
    // A student's run (msviz.Recording.replay): a step and an event a write, a cell perhaps
    // written again; each step's tile code, and the stack depth of the student's calls.
    replay: Boolean(model.get("replay")),
    code: typed(model, "step_code", Uint8Array),
    depth: typed(model, "step_depth", Int32Array),
  };
  r.n = r.cell.length;
  r.m = r.label.length;
  if (r.start.length !== cells) r.start = new Uint8Array(cells);
  if (r.final.length !== cells) r.final = r.start;
  return r;
}

/** Reveal r with a step's words for each step: none sent (or not as many as its steps) reads as
 *  no hidden neighbours. */
function fitted(r) {
  if (r.hidden.length !== r.n) r.hidden = new Uint8Array(r.n);
  return r;
}

/** Work out the timeline of reveal r from its events, in one pass: which step each event is
 *  (`eventStep`), each step's caller (`parent`), depth or layer (`depth`), the calls it made or
 *  cells it queued (`children`), the event that shows it (`visitEvent`), and for each cell the
 *  events at which it is revealed, enters and leaves the stack or queue (`reveal1`, `enter1`,
 *  `leave1`, counted from 1 with 0 for never: read them with revealedAt, enteredAt and leftAt,
 *  which give -1 for never, m for one still waiting at the end). Steps enter in order (a call or
 *  an enqueue makes the next step).
 *  Depth-first, a return is the call on top of the stack; breadth-first, the queue is first in,
 *  first out, and a cell queued is the child of the step taken out last. A student's run has
 *  one event a step, a write, and no stack or queue that the recording saw. */
export function readTimeline(r) {
  const steps = timeline(r, Infinity);
  while (!steps.next().done);
}

/** readTimeline's work, stopping (a yield) after each `slice` events or steps. */
function* timeline(r, slice) {
  const { n, m } = r;
  const cells = r.rows * r.cols;
  const eventStep = new Int32Array(m);
  const enterAt = new Int32Array(n).fill(-1);
  const leaveAt = new Int32Array(n).fill(-1);
  const parent = new Int32Array(n).fill(-1);
  const depth = r.replay && r.depth.length === n ? r.depth : new Int32Array(n);
  const stack = new Int32Array(n); // depth-first: the calls open; breadth-first: unused
  let entered = 0;
  let top = 0; // depth-first: the calls open; breadth-first: the steps taken out so far
  for (let e = 0, end = 0; e < m; e++) {
    if (e === end) {
      if (e > 0) yield;
      end = Math.min(m, e + slice);
    }
    const label = r.label[e];
    if (label === LABEL.write) {
      eventStep[e] = Math.min(e, n - 1);
    } else if (label === LABEL.call || label === LABEL.enqueue) {
      const k = entered++;
      const by = label === LABEL.call ? (top > 0 ? stack[top - 1] : -1) : top - 1;
      parent[k] = by;
      depth[k] = by < 0 ? 0 : label === LABEL.call ? top : depth[by] + 1;
      if (label === LABEL.call) stack[top++] = k;
      eventStep[e] = k;
      enterAt[k] = e;
    } else {
      const k = label === LABEL.return ? stack[--top] : top++;
      eventStep[e] = k;
      leaveAt[k] = e;
    }
  }
  // A step that entered and never left (a reveal carried out by hand so far: the cells still in its
  // queue, its calls still open) waits to the end of the timeline.
  for (let k = 0; k < entered; k++) if (leaveAt[k] < 0) leaveAt[k] = m;
  const visitEvent = new Int32Array(n);
  const children = new Uint8Array(n);
  yield;
  for (let k = 0; k < n; k++) {
    if (k % slice === 0 && k > 0) yield;
    if (r.replay) visitEvent[k] = k;
    else if (r.order === "bfs") visitEvent[k] = k + 1 < n ? leaveAt[k + 1] - 1 : m - 1; // before the next is taken out
    else visitEvent[k] = enterAt[k]; // depth-first: right after its call
    if (parent[k] >= 0 && children[parent[k]] < 255) children[parent[k]]++;
  }
  yield;
  // Per cell, events counted from 1, so that 0 is "never" and a new array (zeros, its memory
  // touched only where written) needs no filling: a million cells' first picture waits on none.
  const reveal1 = new Int32Array(cells);
  const enter1 = new Int32Array(cells);
  const leave1 = new Int32Array(cells);
  // A cell is revealed at its call (depth-first), when it is taken out of the queue (breadth-first),
  // or at its first write (a student's run: a cell written again keeps its first).
  const revealAt = r.replay ? visitEvent : r.order === "bfs" ? leaveAt : enterAt;
  for (let k = n - 1; k >= 0; k--) {
    if (k % slice === 0) yield;
    const i = r.cell[k];
    reveal1[i] = revealAt[k] + 1;
    enter1[i] = enterAt[k] + 1;
    leave1[i] = leaveAt[k] + 1;
  }
  Object.assign(r, { eventStep, parent, depth, children, visitEvent, reveal1, enter1, leave1 });
}

/** The event at which cell i of reveal r is revealed, -1 for never. */
export function revealedAt(r, i) {
  return r.reveal1[i] - 1;
}

/** The event at which cell i enters the stack or queue, -1 for never. */
export function enteredAt(r, i) {
  return r.enter1[i] - 1;
}

/** The event at which cell i leaves the stack or queue, -1 for never, m for still there at the end. */
export function leftAt(r, i) {
  return r.leave1[i] - 1;
}

// Breadth-first, the queue is first in, first out: steps enter it in order and leave it in
// order. So how many have entered or left it by an event are binary searches over the
// per-step arrays, with nothing kept per event (a million cells need no more memory).

/** Breadth-first: how many steps have entered the queue (`enter`) or left it (`leave`) by event e. */
export function queuedBy(r, which, e) {
  const at = which === "enter" ? enteredAt : leftAt;
  return countUpTo(r.n, (k) => at(r, r.cell[k]), e);
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
  const v = revealedAt(r, i);
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

