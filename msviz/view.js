// msviz/view.js: the board drawn in the browser.
//
// An anywidget ES module (plain JavaScript: no build step, nothing fetched).
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

const HIDDEN = 0; // codes as in msviz.render.CODES: E M B 1..8 X
const CODE_SYMBOLS = "EMB12345678X"; // the symbol of each code up to X
const MINE = 1;
const BLANK = 2;
const BOOM = 11; // X, the mine that was clicked
const SHOWN_MINE = 12; // a hidden mine uncovered when the game is lost
const FLAG = 13; // a flag on a hidden cell
const TILES = 14; // tiles per variant; variants: plain, current, outlined, both
const LEGIBLE_CSS_PX = 12; // below this, a digit is drawn as its colour

// ---- reading traits --------------------------------------------------------

/** Return a binary trait (a DataView, or nothing yet) as a typed array of `Type`. */
function typed(model, name, Type) {
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
function countUpTo(n, key, x) {
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
function readReveal(model) {
  const rows = model.get("rows");
  const cols = model.get("cols");
  const cells = rows * cols;
  const r = {
    rows,
    cols,
    order: model.get("order"),
    click: model.get("click"),
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
function queuedBy(r, which, e) {
  return countUpTo(r.n, (k) => r[which][r.cell[k]], e);
}

/** The codes of the event labels, in the order of msviz.EVENT_LABELS. */
const LABEL = { call: 0, return: 1, enqueue: 2, dequeue: 3, write: 4 };

/** A student's run: check its per-step arrays, and list the steps of each cell written more than once. */
function readWrites(r) {
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
function codeAt(r, i, e) {
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
function position(r, mode, p) {
  if (p < 0) return [-1, -1];
  if (mode === "events") {
    const e = Math.min(p, r.m - 1);
    return [e, r.eventStep[e]];
  }
  const k = Math.min(p, r.n - 1);
  return [r.visitEvent[k], k];
}

/** The kind of event e, as msviz.solutions names them: its label and what its cell becomes. */
function eventKind(r, e) {
  const k = r.eventStep[e];
  const label = r.label[e];
  if (label === LABEL.enqueue) return k === 0 ? "enqueue_click" : "enqueue";
  const code = r.final[r.cell[k]];
  const symbol = code === BOOM ? "mine" : code === BLANK ? "blank" : "digit";
  return `${["call", "return", "enqueue", "dequeue"][label]}_${symbol}`;
}

/** How many steps wait after event e: calls on the stack, or cells in the queue. O(1). */
function waitingCount(r, e) {
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

// ---- words -----------------------------------------------------------------

/** Fill template `name` as msviz.words.fill does: {x} by value, {x_s} by x's plural. */
function fill(words, name, values) {
  return words[name].replace(/\{(\w+)\}/g, (_, key) => {
    if (key in values) return String(values[key]);
    const base = key.slice(0, -2);
    return key.endsWith("_s") && base in values ? (values[base] === 1 ? "" : "s") : `{${key}}`;
  });
}

/** The cell of step k as {row, col}, and its caller's as {parent_row, parent_col}. */
function where(r, k) {
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
function childrenWords(words, r, k) {
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
function stepOf(r, i) {
  return r.reveal[i] >= 0 ? r.eventStep[r.reveal[i]] : -1;
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
const isRight = (kind) => kind === "quiz_right" || kind === "quiz_layer" || kind === "quiz_return_right";
/** The verdicts that are not a try: a click on a cell that cannot be the answer's kind. */
const notATry = (kind) => kind === "quiz_revealed" || kind === "quiz_return_hidden";

// ---- tiles -----------------------------------------------------------------

/** Draw every tile variant at `s` device pixels a side; return them as pixel arrays.
 *  Variants: plain, current (amber fill, black border), waiting (outlined in
 *  `waitingColor`), and both. */
function makeSprites(palette, s, cssCell, waitingColor) {
  const canvas = document.createElement("canvas");
  canvas.width = s;
  canvas.height = s;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  const edge = Math.max(1, Math.floor(s / 8));
  const glyphs = cssCell >= LEGIBLE_CSS_PX;

  function hidden() {
    g.fillStyle = palette.face;
    g.fillRect(0, 0, s, s);
    if (s < 4) return;
    g.fillStyle = palette.light; // lit from the top left
    g.fillRect(0, 0, s, edge);
    g.fillRect(0, 0, edge, s);
    g.fillStyle = palette.shadow; // the shadow, cut on the diagonal at two corners
    for (let i = 0; i < edge; i++) {
      g.fillRect(i + 1, s - 1 - i, s - i - 1, 1);
      g.fillRect(s - 1 - i, i + 1, 1, s - i - 1);
    }
  }
  function flat(color = palette.flat) {
    g.fillStyle = color;
    g.fillRect(0, 0, s, s);
    if (s < 4) return;
    g.fillStyle = palette.grid;
    g.fillRect(0, 0, s, 1);
    g.fillRect(0, 0, 1, s);
  }
  function mine() {
    g.fillStyle = palette.mine;
    g.strokeStyle = palette.mine;
    g.beginPath();
    g.arc(s / 2, s / 2, s * (glyphs ? 0.24 : 0.3), 0, 2 * Math.PI);
    g.fill();
    if (!glyphs) return;
    g.lineWidth = Math.max(1, s * 0.06);
    for (let a = 0; a < 180; a += 45) {
      const dx = 0.36 * s * Math.cos((a * Math.PI) / 180);
      const dy = 0.36 * s * Math.sin((a * Math.PI) / 180);
      g.beginPath();
      g.moveTo(s / 2 - dx, s / 2 - dy);
      g.lineTo(s / 2 + dx, s / 2 + dy);
      g.stroke();
    }
    g.fillStyle = palette.light; // the glint
    const c = Math.floor(s * 0.38);
    g.fillRect(c, c, Math.max(1, Math.floor(s / 8)), Math.max(1, Math.floor(s / 8)));
  }
  function glyph(d, halo = false) {
    g.fillStyle = palette[String(d)];
    g.font = `bold ${Math.round(s * 0.62)}px "DejaVu Sans", "Helvetica Neue", Arial, sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    if (halo) { // on the current cell's fill: a light edge keeps every digit legible
      g.strokeStyle = palette.light;
      g.lineWidth = Math.max(2, s / 8);
      g.lineJoin = "round";
      g.strokeText(String(d), s / 2, s * 0.55);
    }
    g.fillText(String(d), s / 2, s * 0.55);
  }
  function digit(d) {
    if (!glyphs) return flat(mix(palette.flat, palette[String(d)], palette.digit_blend));
    flat();
    glyph(d);
  }
  function flag() {
    hidden();
    if (s < 6) {
      g.fillStyle = palette.flag;
      g.fillRect(Math.floor(s / 4), Math.floor(s / 4), Math.ceil(s / 2), Math.ceil(s / 2));
      return;
    }
    g.fillStyle = palette.flag; // a red pennant on a black pole and foot
    triangle(g, s * 0.58, s * 0.2, s * 0.58, s * 0.55, s * 0.25, s * 0.38);
    g.fillStyle = palette.mine;
    g.fillRect(s * 0.55, s * 0.2, Math.max(1, s * 0.07), s * 0.55);
    g.fillRect(s * 0.3, s * 0.72, s * 0.5, Math.max(1, s * 0.1));
  }
  function ring(color, width, inset) {
    g.fillStyle = color;
    const a = inset;
    const b = s - inset;
    g.fillRect(a, a, b - a, width);
    g.fillRect(a, b - width, b - a, width);
    g.fillRect(a, a, width, b - a);
    g.fillRect(b - width, a, width, b - a);
  }
  // Each tile as (background, symbol drawn on it): the current cell keeps its symbol.
  const tiles = [
    [hidden, null], [hidden, null], [() => flat(), null],
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((d) => [() => digit(d), glyphs ? () => glyph(d, true) : null]),
    [() => { flat(palette.boom); mine(); }, mine],
    [() => { flat(); mine(); }, mine],
    [flag, null],
  ];
  const sprites = [];
  for (let variant = 0; variant < 4; variant++) {
    for (const [background, symbol] of tiles) {
      if (variant & 1) { // the current cell: its symbol on amber, in a black border
        g.fillStyle = palette.current;
        g.fillRect(0, 0, s, s);
        if (symbol) symbol();
        ring(palette.current_border, Math.max(1, Math.floor(s / 7)), 0);
      } else {
        background();
      }
      if (variant & 2) { // on the stack or in the queue: an outline a little inside the cell
        ring(waitingColor, Math.max(1, Math.floor(s / 9)), variant & 1 ? Math.max(1, Math.floor(s / 7)) : s >= 12 ? 1 : 0);
      }
      sprites.push(new Uint32Array(g.getImageData(0, 0, s, s).data.buffer.slice(0)));
    }
  }
  return sprites;
}

/** Fill the triangle with corners (x0, y0), (x1, y1), (x2, y2) on context g. */
function triangle(g, x0, y0, x1, y1, x2, y2) {
  g.beginPath();
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
  g.lineTo(x2, y2);
  g.closePath();
  g.fill();
}

/** Return colour `b` laid over `a` with coverage `t`, as a CSS colour. */
function mix(a, b, t) {
  const rgb = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
  const [x, y] = [rgb(a), rgb(b)];
  return `rgb(${x.map((v, i) => Math.floor((1 - t) * v + t * y[i])).join(",")})`;
}

// ---- playback: the view's own clock for the Play widget ---------------------
//
// ipywidgets' Play moves its value with a setTimeout of `interval` after each
// move, so its steps drift late by the time each move takes: asked for 60 a
// second, about 53 arrive. This clock keeps Play's own loop (its value, step,
// repeat and end) but times it by the page's frames, from the moment Play
// starts: a move is due every 1000 / fps ms, at most one a frame, and a frame
// that comes late does not pile moves up behind it.

/** Drive `play` (a Play widget's model) by animation frames at `fps()` moves a second.
 *  Returns {restart, dispose}: restart when Play starts or stops; dispose gives Play its own timer back. */
function playClock(play, fps) {
  const own = play.schedule_next;
  let t0 = 0; // when Play started
  let moves = 0; // the moves made since
  let frame = 0;
  const tick = (now) => {
    frame = 0;
    if (!play.get("playing")) return;
    const period = 1000 / Math.max(1, fps());
    const due = Math.floor((now - t0) / period + 0.25); // a quarter period early is on time
    if (due <= moves) {
      frame = requestAnimationFrame(tick);
      return;
    }
    moves = Math.max(moves + 1, due - 1); // behind by more than a move: catch up the clock, not the steps
    play.loop(); // Play's own move: value + step, or repeat, or pause at the end; it schedules the next
  };
  function scheduleNext() {
    this._timerId = -1; // a move is scheduled: Play's animate() must not start a second loop
    if (!frame) frame = requestAnimationFrame(tick);
  }
  play.schedule_next = scheduleNext;
  return {
    restart() {
      t0 = performance.now();
      moves = 0;
    },
    dispose() {
      cancelAnimationFrame(frame);
      frame = 0;
      if (play.schedule_next === scheduleNext) play.schedule_next = own; // not if another view's clock came since
    },
  };
}

// ---- the parts of a view ---------------------------------------------------
//
// Each part below is a factory: given the elements and the model it works on, it
// returns a few functions, and `dispose` (where it holds timers, observers or
// listeners) undoes everything it did. render() builds the elements and wires the
// parts together; what they draw comes from the model's traits and the reveal.

/** A new element: a tag, its class, and what it holds. */
function make(tag, className, ...children) {
  const node = document.createElement(tag);
  node.className = className;
  node.append(...children);
  return node;
}

// What a screen reader is told: the caption (or the cell under the keyboard's cursor)
// goes to a polite live region, at most once every ANNOUNCE_MS: each step when stepping
// by hand, a few times a second during Play.
const ANNOUNCE_MS = 400;

/** The live region's voice. Returns {say(text), dispose}: say writes `text` to the region now,
 *  or ANNOUNCE_MS after the last time (a later text replaces one still waiting). */
function makeAnnouncer(live) {
  let at = -Infinity; // when the region was last written
  let timer = 0;
  return {
    say(text) {
      if (text === live.textContent) return;
      clearTimeout(timer);
      const write = () => {
        live.textContent = text;
        at = performance.now();
      };
      const wait = at + ANNOUNCE_MS - performance.now();
      if (wait <= 0) write();
      else timer = setTimeout(write, wait);
    },
    dispose: () => clearTimeout(timer),
  };
}

/** Names for the ipywidgets controls around view `root` that show only an icon or a title:
 *  the Play widget's buttons (by what each does now), the sliders' handles (by their labels),
 *  the rest by their titles. Returns {watch, dispose}: watch (once the view is in its output)
 *  names them, and again whenever a control is drawn or its icon changes (Play to Pause). */
function makeControlNames(root, model) {
  let watcher = null;
  const output = () => root.closest(".jp-OutputArea-output, .output_subarea");
  function name() {
    const box = output();
    if (!box) return;
    const words = model.get("words");
    for (const b of box.querySelectorAll(".widget-play button")) {
      const icon = (b.querySelector("i")?.className || "").match(/fa-(play|pause|stop|retweet)/);
      const said = icon && words[`play_${icon[1] === "retweet" ? "repeat" : icon[1]}`];
      if (said && b.getAttribute("aria-label") !== said) b.setAttribute("aria-label", said);
    }
    for (const handle of box.querySelectorAll(".widget-slider [role=slider]:not([aria-label])")) {
      const label = handle.closest(".widget-slider").querySelector(".widget-label");
      if (label && label.textContent) handle.setAttribute("aria-label", label.textContent);
    }
    for (const field of box.querySelectorAll("select[title]:not([aria-label]), button[title]:not([aria-label])")) {
      field.setAttribute("aria-label", field.title);
    }
  }
  return {
    watch() {
      const box = output();
      if (watcher || !box) return;
      watcher = new MutationObserver(name);
      watcher.observe(box, { subtree: true, childList: true, attributes: true, attributeFilter: ["class"] });
      name();
    },
    dispose() {
      if (watcher) watcher.disconnect();
      watcher = null;
    },
  };
}

/** The board's pointer: a click acts on its cell; a right-click, a click with a modifier key, or
 *  a long press on a touch screen flags it, with no menu (neither the browser's nor JupyterLab's,
 *  which listens on the document). `onCell(event, flag)` gets each. Returns {dispose}. */
function makePointer(canvas, root, onCell) {
  let pressed = false; // a long press has flagged: drop the click (or menu event) that ends it
  let timer = 0;
  const cancel = () => clearTimeout(timer);
  const handlers = {
    click: (e) => {
      if (pressed) pressed = false; // the end of a long press: it has flagged already
      else onCell(e, e.shiftKey || e.ctrlKey || e.metaKey || e.altKey);
    },
    contextmenu: (e) => {
      e.stopPropagation();
      e.preventDefault();
      if (pressed) pressed = false;
      else onCell(e, true);
    },
    pointerdown: (e) => {
      pressed = false;
      if (e.pointerType !== "touch") return;
      cancel();
      timer = setTimeout(() => {
        pressed = true;
        onCell(e, true);
      }, 500);
    },
    pointerup: cancel,
    pointercancel: cancel,
    pointerleave: cancel,
  };
  root.dataset.jpSuppressContextMenu = "";
  for (const [name, handler] of Object.entries(handlers)) canvas.addEventListener(name, handler);
  return {
    dispose() {
      cancel();
      for (const [name, handler] of Object.entries(handlers)) canvas.removeEventListener(name, handler);
    },
  };
}

/** The Play widget that drives a view (its `play` trait), once its model has come: its speed
 *  follows the view's `fps`, the view's clock times its moves (playClock), and with several steps a
 *  frame it still ends on the last step. While it plays, the browser alone moves the step: the saves
 *  to the kernel of the models linked to it (`linked`: Play, the slider, the views) are held back
 *  and sent twice a second, and once when it stops, so that the kernel stays nearly idle however
 *  fast it plays. Returns {model() (Play's model, null if none), dispose}. */
function makePlayback(model) {
  let play = null;
  let undo = () => {};
  let disposed = false;
  const getModel = (ref) => model.widget_manager.get_model(String(ref).replace(/^IPY_MODEL_/, ""));
  async function attach() {
    const ref = model.get("play");
    if (!ref || !model.widget_manager) return;
    const found = await getModel(ref);
    const linked = await Promise.all((model.get("linked") || []).map(getModel));
    if (disposed) return; // the view went while the models came
    play = found;
    const speed = () => {
      play.set("interval", Math.max(1, Math.round(1000 / Math.max(1, model.get("fps")))));
      play.save_changes();
    };
    const clock = playClock(play, () => model.get("fps"));
    let held = null; // the models whose saves wait, and the timer that sends them
    const flush = () => {
      for (const m of held.dirty) m.msvizSave.call(m);
      held.dirty.clear();
    };
    function hold(on) {
      if (on && !held) {
        held = { dirty: new Set(), timer: setInterval(flush, 500) };
        for (const m of linked) {
          m.msvizSave = m.save_changes;
          m.save_changes = () => held.dirty.add(m);
        }
      } else if (!on && held) {
        clearInterval(held.timer);
        for (const m of linked) m.save_changes = m.msvizSave;
        flush();
        held = null;
      }
    }
    // Act once the change is over: a save made inside a change event would send (and
    // set back) the state from before it, since the widget records its changes after.
    const onPlaying = () => queueMicrotask(() => {
      const playing = play.get("playing");
      hold(playing);
      clock.restart();
      const value = play.get("value");
      const max = play.get("max");
      if (!playing && value < max && value + play.get("step") > max) {
        play.set("value", max);
        play.save_changes();
      }
    });
    speed();
    model.on("change:fps", speed);
    play.on("change:playing", onPlaying);
    undo = () => { // the listeners off, the linked models' saves and Play's timer as they were
      model.off("change:fps", speed);
      play.off("change:playing", onPlaying);
      hold(false);
      clock.dispose();
    };
  }
  attach();
  return {
    model: () => play,
    dispose() {
      disposed = true;
      undo();
      play = null;
    },
  };
}

/** The code beside (or under) the board: its lines numbered, the line that runs highlighted and
 *  kept in the middle of the code's window, and under it the stack's frames or the queue.
 *  Returns {build, draw(r, mode, e, cur), follow, line()}. */
function makeCodePanel(model, code, frames, side) {
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
    const at = mode === "events" ? e : cur >= 0 ? r.reveal[r.cell[cur]] : -1;
    const next = at >= 0 ? model.get("code_lines")[eventKind(r, at)] || 0 : 0;
    if (next !== line) {
      if (line) code.children[line - 1]?.classList.remove("msviz-on");
      if (next) code.children[next - 1]?.classList.add("msviz-on");
      line = next;
    }
    follow(); // also after the layout changed
    frames.textContent = framesText(r, e, model.get("neighbors") || []);
  }
  return { build, draw, follow, line: () => line };
}

/** The stack's frames after event e, top first (each with the neighbour it tries next, of
 *  `neighbors`), or the queue, front first: a dozen, and how many more. */
function framesText(r, e, neighbors) {
  const total = waitingCount(r, e);
  const steps = waiting(r, e, 13); // the dozen nearest the top or the front, and the one under them
  const cellOf = (k) => [Math.floor(r.cell[k] / r.cols), r.cell[k] % r.cols];
  const shown = r.order === "bfs" ? steps.slice(0, 12) : steps.slice(-12);
  const more = total - shown.length;
  const lines = [];
  if (r.order === "bfs") {
    lines.push(`queue, front first (${total}):`);
    // A cell's two numbers never part at the end of a line (a no-break space between them).
    lines.push(shown.map((k) => `(${cellOf(k).join(",\u00a0")})`).join(" ") + (more > 0 ? ` ... ${more} more` : ""));
    return lines.join("\n");
  }
  const offsets = neighbors.map((d) => d.join(","));
  const nextOf = (j) => { // the neighbour (1-based) frame j of the chain tries next
    const k = steps[j];
    const child = j + 1 < steps.length ? steps[j + 1] : e >= 0 && r.label[e] === LABEL.return ? r.eventStep[e] : -1;
    if (child < 0) return r.final[r.cell[k]] === BLANK ? 1 : 0;
    const [a, b] = [cellOf(child), cellOf(k)];
    return offsets.indexOf(`${a[0] - b[0]},${a[1] - b[1]}`) + 2;
  };
  lines.push(`stack, top first (${total} call${total === 1 ? "" : "s"}):`);
  for (let j = steps.length - 1; j >= steps.length - shown.length; j--) {
    const next = nextOf(j);
    const what = next === 0 ? "returns now" : next > offsets.length ? "all neighbours tried: returns next" : `next neighbour: ${next} of ${offsets.length}`;
    lines.push(`reveal(${cellOf(steps[j]).join(", ")})  ${what}`);
  }
  if (more > 0) lines.push(`... ${more} more`);
  return lines.join("\n");
}

/** The quiz: a click is a guess of the next step (or, after a return, of the call that goes on),
 *  judged here; the kernel only reads the score back. `view` tells what the view shows:
 *  {reveal(), target(), last(), mode(), request()}; `parts` are the quiz's elements:
 *  {rule, verdict, score, said}. Returns {on, returning, position, draw, guess, mark, forget}. */
function makeQuiz(model, view, parts) {
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
    parts.verdict.style.color = !now || notATry(now.kind) ? "" : model.get("palette")[isRight(now.kind) ? "right" : "wrong"];
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

/** The board's cells on `canvas`: each cell a sprite (its symbol; whether it is current, or waiting
 *  on the stack or in the queue) copied into one pixel buffer, put on the canvas at once. A move
 *  redraws only the cells of the events between (drawChange); a jump, every cell (drawAll).
 *  Returns {reset, readFlags, repaint, size, setLook, drawAll, drawChange, shown, side}. */
function makeTiles(canvas, model) {
  const ctx = canvas.getContext("2d");
  let r = null; // the reveal
  let s = 0; // device pixels a cell
  let sprites = null;
  let image = null; // ImageData of the whole board
  let pixels = null; // its pixels as 32-bit words
  let shown = new Uint16Array(0); // the sprite drawn in each cell (what the tests read back)
  let flags = new Uint8Array(0);

  // The traits every cell's sprite depends on, read once a frame (not once a cell).
  const look = { mines: false, current: true, frontier: true };
  /** Read the look once a frame: a lost game's mines shown, the current cell marked, the waiting outlined. */
  function setLook(mines, current) {
    look.mines = mines;
    look.current = current;
    look.frontier = model.get("show_frontier");
  }

  /** The sprite of cell i after event e, with the cell of step `cur` current. */
  function spriteOf(i, e, cur) {
    let tile = codeAt(r, i, e);
    if (tile === MINE) tile = look.mines ? SHOWN_MINE : HIDDEN;
    if (tile === HIDDEN && flags[i]) tile = FLAG;
    let variant = look.current && cur >= 0 && r.cell[cur] === i ? 1 : 0;
    if (look.frontier) {
      const enter = r.enter[i];
      if (enter >= 0 && enter <= e && e < r.leave[i]) variant += 2;
    }
    return tile + TILES * variant;
  }

  /** The flags planted (the game), one byte a cell. */
  function readFlags() {
    flags = typed(model, "flags", Uint8Array);
    if (flags.length !== r.rows * r.cols) flags = new Uint8Array(r.rows * r.cols);
  }

  /** Copy sprite `sp` into cell i of the pixel buffer. */
  function paint(i, sp) {
    shown[i] = sp;
    if (s === 1) { // one pixel a cell: the board is the buffer
      pixels[i] = sprites[sp][0];
      return;
    }
    const width = r.cols * s;
    const x0 = (i % r.cols) * s;
    const y0 = Math.floor(i / r.cols) * s;
    const tile = sprites[sp];
    if (s <= 4) { // small tiles: a copy per pixel is quicker than a view per row
      for (let y = 0; y < s; y++) for (let x = 0; x < s; x++) pixels[(y0 + y) * width + x0 + x] = tile[y * s + x];
    } else {
      for (let y = 0; y < s; y++) pixels.set(tile.subarray(y * s, y * s + s), (y0 + y) * width + x0);
    }
  }

  /** Size `canvases` for cells of `css` CSS pixels at `dpr` device pixels each, with sprites in
   *  `waitingColor`; return true if the cell size changed (then everything is to be drawn). */
  function size(css, dpr, canvases, waitingColor) {
    const next = Math.max(1, Math.floor(css * dpr));
    if (next === s && image) return false;
    s = next;
    for (const c of canvases) {
      c.width = r.cols * s;
      c.height = r.rows * s;
      c.style.width = `${(r.cols * s) / dpr}px`;
      c.style.height = `${(r.rows * s) / dpr}px`;
    }
    sprites = makeSprites(model.get("palette"), s, s / dpr, waitingColor);
    image = ctx.createImageData(canvas.width, canvas.height);
    pixels = new Uint32Array(image.data.buffer);
    return true;
  }

  function drawAll(e, cur) {
    for (let i = 0; i < r.rows * r.cols; i++) paint(i, spriteOf(i, e, cur));
    ctx.putImageData(image, 0, 0);
  }

  /** Redraw only the cells that differ between events a and b. */
  function drawChange(a, curA, b, curB) {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    let box = null; // the dirty rectangle, in cells
    const touch = (i) => {
      const sp = spriteOf(i, b, curB);
      if (shown[i] === sp) return;
      paint(i, sp);
      const y = Math.floor(i / r.cols);
      const x = i % r.cols;
      if (!box) box = [x, y, x, y];
      else box = [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)];
    };
    // An event changes one cell, its own: the cell of its step is revealed (or written), or
    // enters or leaves the stack or queue. So the cells that differ are those of the events between.
    for (let e = Math.max(0, lo + 1); e <= hi && e < r.m; e++) touch(r.cell[r.eventStep[e]]);
    if (curA >= 0) touch(r.cell[curA]);
    if (curB >= 0) touch(r.cell[curB]);
    if (box) {
      ctx.putImageData(image, 0, 0, box[0] * s, box[1] * s, (box[2] - box[0] + 1) * s, (box[3] - box[1] + 1) * s);
    }
  }

  return {
    /** A new reveal: nothing drawn yet, and new sprites at the next size (their colours follow its order). */
    reset(reveal) {
      r = reveal;
      shown = new Uint16Array(r.rows * r.cols);
      readFlags();
      s = 0;
    },
    readFlags,
    repaint: () => { s = 0; }, // new colours: new sprites at the next size
    size,
    setLook,
    drawAll,
    drawChange,
    shown: () => shown,
    side: () => s,
  };
}

/** Over the board, on its own canvas: the call chain as a path of arrows (DFS) or the queue
 *  numbered from its front (BFS), the quiz's mark on the cell guessed, and the keyboard's cursor.
 *  Returns {draw(r, s, dpr, e, mark, cursor)}: s device pixels a cell, dpr device pixels a CSS
 *  pixel, e the event shown, mark the quiz's (or null), cursor the cell under it (-1: none). */
function makeOverlay(overlay, model) {
  const octx = overlay.getContext("2d");
  let r = null;
  let s = 0;
  let dpr = 1;
  const waitingColor = () => model.get("palette")[r.order === "bfs" ? "queue" : "stack"];

  /** The quiz's mark on the cell guessed: a green ring if it counts (another cell of the
   *  layer, breadth-first), a ring and a cross in the colour of wrong answers if not. */
  function drawMark(mark) {
    const x = (mark.cell % r.cols) * s;
    const y = Math.floor(mark.cell / r.cols) * s;
    const width = Math.max(2, Math.round(s * 0.12));
    octx.globalAlpha = 1;
    octx.lineWidth = width;
    octx.strokeStyle = model.get("palette")[isRight(mark.kind) ? "right" : "wrong"];
    octx.strokeRect(x + width / 2, y + width / 2, s - width, s - width);
    if (isRight(mark.kind)) return;
    octx.lineCap = "round";
    octx.beginPath();
    for (const [a, b, c, d] of [[0.3, 0.3, 0.7, 0.7], [0.7, 0.3, 0.3, 0.7]]) {
      octx.moveTo(x + a * s, y + b * s);
      octx.lineTo(x + c * s, y + d * s);
    }
    octx.stroke();
  }

  /** The call chain as a path of arrows (DFS), or the queue numbered from its front (BFS). */
  function drawWaiting(e) {
    if (!model.get("show_frontier") || !r || r.m === 0 || e < 0) return;
    // At most the 2,000 calls nearest the top (or cells nearest the front): the cells
    // themselves are outlined by the tiles, and a frame must stay a frame.
    const steps = waiting(r, e, 2000);
    if (!steps.length) return;
    const middle = (k) => [((r.cell[k] % r.cols) + 0.5) * s, (Math.floor(r.cell[k] / r.cols) + 0.5) * s];
    // The path ends at the edge of a top call that is a digit or a mine, so that its symbol stays in sight.
    const top = steps[steps.length - 1];
    const stopShort = r.order !== "bfs" && steps.length > 1 && r.final[r.cell[top]] !== BLANK;
    const centre = (k) => {
      if (!(stopShort && k === top)) return middle(k);
      const [x0, y0] = middle(steps[steps.length - 2]);
      const [x1, y1] = middle(k);
      const t = 1 - (0.5 * s) / Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)); // to the cell's border
      return [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t];
    };
    const color = waitingColor();
    const css = s / dpr;
    const numbered = css >= 16 && steps.length <= 400;
    octx.font = `bold ${Math.max(9, Math.round(s * 0.36))}px sans-serif`;
    octx.textAlign = "center";
    octx.textBaseline = "middle";
    const label = (k, n) => { // a small number in a white pill, in the cell's top left corner
      const [x, y] = centre(k);
      const w = octx.measureText(String(n)).width + s * 0.14;
      const h = s * 0.42;
      octx.fillStyle = "rgba(255,255,255,0.92)";
      octx.fillRect(x - s / 2 + 1, y - s / 2 + 1, w, h);
      octx.fillStyle = color;
      octx.fillText(String(n), x - s / 2 + 1 + w / 2, y - s / 2 + 1 + h / 2 + 0.5);
    };
    if (r.order === "bfs") {
      if (numbered) steps.forEach((k, j) => label(k, j + 1));
      const [x, y] = centre(steps[0]); // the front of the queue: a thick ring
      octx.strokeStyle = color;
      octx.lineWidth = Math.max(2, s * 0.16);
      octx.strokeRect(x - s / 2 + octx.lineWidth / 2, y - s / 2 + octx.lineWidth / 2, s - octx.lineWidth, s - octx.lineWidth);
      return;
    }
    // The call chain: a line from each call to the call it made, darker towards the top,
    // with an arrowhead into each call when the cells are large enough to see one.
    const width = Math.max(1.5, s * 0.14);
    octx.lineCap = "round";
    octx.lineJoin = "round";
    octx.strokeStyle = color;
    octx.fillStyle = color;
    const n = steps.length;
    const bands = 8; // the path in a few strokes, each a shade darker towards the top
    octx.lineWidth = width;
    for (let band = 0; band < bands; band++) {
      const from = Math.max(1, Math.floor((band * n) / bands));
      const to = Math.floor(((band + 1) * n) / bands);
      if (from >= to) continue;
      octx.globalAlpha = 0.35 + (0.65 * (band + 1)) / bands;
      octx.beginPath();
      octx.moveTo(...centre(steps[from - 1]));
      for (let j = from; j < to; j++) octx.lineTo(...centre(steps[j]));
      octx.stroke();
    }
    // An arrowhead into each called cell, when the cells are large enough to see one.
    for (let j = 1; j < n && css >= 10 && n <= 400; j++) {
      const [x0, y0] = centre(steps[j - 1]);
      const [x1, y1] = centre(steps[j]);
      octx.globalAlpha = 0.35 + (0.65 * j) / Math.max(1, n - 1);
      const a = Math.atan2(y1 - y0, x1 - x0);
      const back = stopShort && j === n - 1 ? 0 : s * 0.2; // a stopped path's tip is on the border already
      const tipX = x1 - Math.cos(a) * back;
      const tipY = y1 - Math.sin(a) * back;
      const len = s * 0.3;
      triangle(octx, tipX, tipY, tipX - len * Math.cos(a - 0.5), tipY - len * Math.sin(a - 0.5),
               tipX - len * Math.cos(a + 0.5), tipY - len * Math.sin(a + 0.5));
    }
    octx.globalAlpha = 1;
    if (r.parent[steps[0]] < 0) { // the click's call: a dot where the chain starts
      const [x0, y0] = centre(steps[0]);
      octx.beginPath();
      octx.arc(x0, y0, Math.max(2, s * 0.16), 0, 2 * Math.PI);
      octx.fill();
    }
    // Each call's depth, in the corner of its cell; not on a digit or a mine (the top call), whose symbol it would hide.
    if (numbered) steps.forEach((k) => r.final[r.cell[k]] === BLANK && label(k, r.depth[k]));
  }

  /** The cursor: a ring in the focus colour, inside the cell, while the view has the keys. */
  function drawCursor(cursor) {
    if (cursor < 0 || cursor >= r.rows * r.cols) return;
    const width = Math.max(2, Math.round(s * 0.14));
    octx.globalAlpha = 1;
    octx.lineWidth = width;
    octx.strokeStyle = model.get("palette").focus;
    octx.setLineDash([]);
    octx.strokeRect((cursor % r.cols) * s + width / 2, Math.floor(cursor / r.cols) * s + width / 2, s - width, s - width);
  }

  return {
    draw(reveal, side, ratio, e, mark, cursor) {
      [r, s, dpr] = [reveal, side, ratio];
      octx.setTransform(1, 0, 0, 1, 0, 0);
      octx.clearRect(0, 0, overlay.width, overlay.height);
      drawWaiting(e);
      if (mark) drawMark(mark);
      drawCursor(cursor);
    },
  };
}

// ---- the view --------------------------------------------------------------


function render({ model, el }) {
  // The look is view.css: anywidget loads it in a notebook, an exported page embeds it.
  const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  const title = make("div", "msviz-title");
  const canvas = make("canvas", "msviz-cells");
  const overlay = make("canvas", "msviz-overlay");
  const board = make("div", "msviz-board", canvas, overlay);
  const text = make("div", "msviz-caption");
  const legend = make("div", "msviz-legend");
  // The quiz: its rule above the board; under it, the verdict of the last guess and the score.
  const quizRule = make("div", "msviz-quiz-rule");
  const quizVerdict = make("span", "msviz-quiz-verdict");
  const quizScore = make("span", "msviz-quiz-score");
  const quizSaid = make("div", "msviz-quiz-said", quizVerdict, quizScore);
  // Beside the board: the code being animated, its line highlighted, and the stack's frames or the queue.
  const left = make("div", "msviz-left", quizRule, board, quizSaid, text, legend);
  const code = make("pre", "msviz-code");
  const frames = make("div", "msviz-frames");
  const side = make("div", "msviz-side", code, frames);
  // What a screen reader says: the caption, or the cell under the keyboard's cursor (politely, see makeAnnouncer).
  const live = make("div", "msviz-live");
  live.setAttribute("aria-live", "polite");
  live.setAttribute("aria-atomic", "true");
  const root = make("div", "msviz-view", title, make("div", "msviz-main", left, side), live);
  root.tabIndex = 0; // keyboard: see onKey
  root.setAttribute("role", "region");
  root.dataset.lmSuppressShortcuts = ""; // JupyterLab's shortcuts stay quiet while the view has the keys
  canvas.setAttribute("role", "img");
  overlay.setAttribute("aria-hidden", "true");
  for (const part of [code, frames]) { // they scroll: the keyboard can scroll them too
    part.tabIndex = 0;
    part.setAttribute("role", "region");
  }
  el.appendChild(root);
  const tiles = makeTiles(canvas, model);
  const marks = makeOverlay(overlay, model);

  let r = null; // the reveal (readReveal)
  let generation = -1; // which reveal r is
  let dpr = 1; // device pixels a CSS pixel
  let drawn = null; // [position, event, current step] the canvas shows, null before the first draw
  let flood = null; // a running flood animation: {at, to, t0, perStep}
  let frame = 0; // a pending animation frame
  let flags = new Uint8Array(0);
  let atEnd = false; // whether the last position is shown (a lost game then shows its mines)
  let marked = null; // the verdict marked on the overlay

  const mode = () => (model.get("mode") === "events" ? "events" : "visits");
  const last = () => (r ? (mode() === "events" ? r.m : r.n) - 1 : -1);
  const target = () => {
    const p = Math.max(-1, Math.min(model.get("step"), last()));
    return flood ? Math.min(flood.at, p) : p;
  };
  const waitingColor = () => model.get("palette")[r && r.order === "bfs" ? "queue" : "stack"];

  // ---- the layout: board, caption and code all in sight, on a laptop's screen too
  //
  // The view has the width of its output, and the height the notebook (or page) shows
  // less what lies above it in its output (a player's controls). Beside the board the
  // code is whole; under the caption it is a window of CODE_WINDOW lines that follows the
  // running line. The arrangement that gives the larger cells wins (beside, if equal).

  const CODE_WINDOW = 5; // lines of code in sight when the code is under the board
  const LINE_PX = 12 * 1.45; // a line of code
  let arrangement = ""; // "beside" or "stacked"
  let charPx = 0; // the width of a character of the code's font

  /** The height in sight: the box that scrolls the view (a notebook's panel, or the window), less what
   *  is above the view in its output (a player's controls). */
  function room() {
    let height = window.innerHeight || 800;
    // A notebook's panel, known by name: it may not scroll yet while its cells are still arriving.
    const known = root.closest(".jp-WindowedPanel-outer, .jp-Notebook, #notebook, #site");
    for (let node = known || root.parentElement; node; node = node.parentElement) {
      const y = getComputedStyle(node).overflowY;
      const scrolls = node === known || node.scrollHeight > node.clientHeight + 1;
      if ((y === "auto" || y === "scroll") && node.clientHeight > 0 && scrolls) {
        height = Math.min(height, node.clientHeight);
        break;
      }
    }
    const frame = root.closest("[data-msviz-frame], .jp-OutputArea-output, .output_subarea");
    const above = frame ? root.getBoundingClientRect().top - frame.getBoundingClientRect().top : 0;
    return height - Math.max(0, above) - 8;
  }

  /** The width the code asks for beside the board: its longest line (up to 46 characters) and its numbers. */
  function codeWidth(source) {
    if (!charPx) {
      const probe = make("code", "", "0".repeat(20));
      code.append(probe);
      charPx = probe.getBoundingClientRect().width / 20 || 7.2;
      probe.remove();
    }
    const longest = Math.max(...source.split("\n").map((line) => line.length));
    return Math.min(longest, 46) * charPx + 12 * 2.2 + 8 + 4 + 8 + 2;
  }

  /** Choose the arrangement and the caption's reserved lines; return the side of a cell in CSS pixels. */
  function arrange() {
    const width = root.clientWidth || el.clientWidth || 600;
    const source = model.get("code");
    const most = model.get("max_cell");
    // A caption keeps room for the longest it may be, so that the board does not jump from step to step.
    const captionLines = (w) => Math.max(2, Math.min(5, Math.ceil(1500 / Math.max(w, 200))));
    const fixed = () => title.offsetHeight + legend.offsetHeight + quizRule.offsetHeight + quizSaid.offsetHeight + 16;
    const height = room();
    const textPx = parseFloat(getComputedStyle(text).fontSize) || 16;
    const fit = (w, h) => Math.min(most, w / r.cols, Math.max(12, h / r.rows));
    let beside = 0;
    const wanted = source ? codeWidth(source) : 0;
    if (source && width - wanted - 16 >= 200) {
      const boardWidth = width - wanted - 16;
      beside = fit(boardWidth, height - fixed() - captionLines(boardWidth) * 1.3 * textPx);
    }
    const windowPx = source ? CODE_WINDOW * LINE_PX + 8 + 8 : 0;
    const stacked = fit(width, height - fixed() - captionLines(width) * 1.3 * textPx - windowPx);
    const next = source && (beside >= stacked || (arrangement === "beside" && beside >= 0.9 * stacked)) ? "beside" : "stacked";
    const cell = next === "beside" ? beside : stacked;
    if (next !== arrangement) {
      arrangement = next;
      root.classList.toggle("msviz-beside", next === "beside");
      root.classList.toggle("msviz-stacked", next === "stacked");
    }
    const boardPx = Math.floor(cell) * r.cols;
    left.style.width = next === "beside" ? `${Math.max(boardPx, 200)}px` : "";
    text.style.minHeight = `${captionLines(next === "beside" ? Math.max(boardPx, 200) : width) * 1.3}em`;
    code.style.maxHeight = next === "beside" ? `${Math.max(CODE_WINDOW * LINE_PX, height - 7 * LINE_PX)}px` : `${CODE_WINDOW * LINE_PX + 8}px`;
    frames.style.maxHeight = `${(next === "beside" ? 7 : 2) * LINE_PX}px`;
    return cell;
  }

  /** Size the canvases to the space the view has; return true if the cell size changed. */
  function layout() {
    dpr = window.devicePixelRatio || 1;
    return tiles.size(arrange(), dpr, [canvas, overlay], waitingColor());
  }

  function draw() {
    frame = 0;
    let full = false;
    if (generation !== model.get("generation") || !r) {
      generation = model.get("generation");
      r = readReveal(model);
      tiles.reset(r);
      flood = null;
      if (model.get("flood") && r.n > 1 && !reducedMotion()) {
        // Animate a game's click: every step shown once, at most about 1.5 s in all.
        const k = Math.max(-1, Math.min(model.get("step"), last()));
        flood = { at: -1, to: k, t0: performance.now(), perStep: Math.min(40, 1500 / (k + 1)) };
      }
      full = true;
    }
    if (layout()) full = true;
    if (flood) {
      flood.at = Math.min(flood.to, Math.floor((performance.now() - flood.t0) / flood.perStep));
      if (flood.at >= flood.to) {
        flood = null;
        full = true; // the current cell and a lost game's mines change with the end of the flood
      }
    }
    const p = target();
    const [e, cur] = quiz.position(p) || position(r, mode(), p);
    if (atEnd !== (p === last() && !flood)) {
      atEnd = !atEnd;
      full = true;
    }
    // A lost game's mines show at its end; the current cell, except in a game once its flood is over.
    tiles.setLook(model.get("show_mines") && atEnd, Boolean(flood) || !model.get("flood"));
    const moved = drawn === null ? Infinity : Math.abs(e - drawn[1]);
    if (full || moved * 8 > r.rows * r.cols) tiles.drawAll(e, cur);
    else if (e !== drawn[1] || cur !== drawn[2]) tiles.drawChange(drawn[1], drawn[2], e, cur);
    const mark = quiz.mark(p); // the quiz's last guess, marked on its cell
    if (drawn === null || full || e !== drawn[1] || mark !== marked) {
      // The cursor shows only while the view has the keys.
      marks.draw(r, tiles.side(), dpr, e, mark, document.activeElement === root ? cursor : -1);
      marked = mark;
    }
    drawn = [p, e, cur];
    root.dataset.step = String(p);
    title.textContent = model.get("title");
    title.style.display = model.get("title") ? "" : "none";
    if (model.get("show_caption")) {
      const words = model.get("words");
      const said = mode() === "events" ? eventCaption(words, r, e) : caption(words, r, cur);
      text.textContent = said + (model.get("step") > last() && last() >= 0 ? words.finished : "");
    }
    text.style.display = model.get("show_caption") ? "" : "none";
    quiz.draw(p);
    drawNames();
    // Said once when it changes: the verdict and caption, or else (the game) the cell under the cursor.
    const said = model.get("show_caption") ? [...quiz.said(), text.textContent].filter(Boolean).join(" ") : "";
    if (said !== lastSaid) {
      lastSaid = said;
      if (said) voice.say(said);
    }
    if (!said && pointing() && cursor >= 0) sayCursor();
    codePanel.draw(r, mode(), e, cur);
    if (flood) request();
  }

  // ---- what a screen reader is told: the view is a region named for the keys it takes, the
  // board a picture named by its size; the caption goes to a polite live region (makeAnnouncer).
  const voice = makeAnnouncer(live);
  const names = makeControlNames(root, model);
  let lastSaid = "";

  /** The names of the view, its board and its code, in words from Python. */
  function drawNames() {
    const words = model.get("words");
    const size = { rows: r.rows, cols: r.cols };
    const keys = pointing() ? fill(words, "keys_cells", { act: words[quiz.on() ? "act_guess" : "act_reveal"] })
      + (quiz.on() ? "" : words.keys_flag) : model.get("keyboard") ? words.keys_steps : "";
    root.setAttribute("aria-label", [model.get("title"), fill(words, "view_name", size), keys].filter(Boolean).join(". "));
    canvas.setAttribute("aria-label", fill(words, "board_name", size));
    code.setAttribute("aria-label", words.code_name);
    frames.setAttribute("aria-label", words[`frames_name_${r.order}`]);
    names.watch();
  }

  // ---- the keyboard's cursor: where the quiz guesses and the game reveals without a mouse
  let cursor = -1; // the cell under it, -1 before the keys first move it
  const pointing = () => quiz.on() || (!model.get("keyboard") && !model.get("quiz"));
  /** Say what the cell under the cursor shows (what is drawn, so hidden mines stay hidden). */
  function sayCursor() {
    const words = model.get("words");
    const at = { row: Math.floor(cursor / r.cols), col: cursor % r.cols };
    voice.say(fill(words, "cursor", { ...at, what: words.tile_names[tiles.shown()[cursor] % TILES] }));
  }
  /** Move the cursor by (dr, dc), staying on the board; it starts on the cell of this step or the middle. */
  function moveCursor(dr, dc) {
    if (cursor < 0) {
      const k = Math.max(-1, Math.min(model.get("step"), last()));
      cursor = k >= 0 ? r.cell[k] : Math.floor(r.rows / 2) * r.cols + Math.floor(r.cols / 2);
    } else {
      const row = Math.max(0, Math.min(r.rows - 1, Math.floor(cursor / r.cols) + dr));
      const col = Math.max(0, Math.min(r.cols - 1, (cursor % r.cols) + dc));
      cursor = row * r.cols + col;
    }
    marked = undefined; // the overlay is drawn again, cursor and all
    request();
    sayCursor();
  }
  // ---- the quiz (makeQuiz): a click is a guess, judged here
  const quiz = makeQuiz(model, { reveal: () => r, target, last, mode, request },
    { rule: quizRule, verdict: quizVerdict, score: quizScore, said: quizSaid });

  /** Give the view's CSS the palette's colours, as custom properties --msviz-<name>. */
  function paletteToCss() {
    for (const [name, value] of Object.entries(model.get("palette") || {})) {
      if (typeof value === "string") root.style.setProperty(`--msviz-${name}`, value);
    }
  }

  const codePanel = makeCodePanel(model, code, frames, side);
  /** The code changed: write it afresh, and choose the arrangement again. */
  function buildCode() {
    codePanel.build();
    arrangement = "";
  }

  function request() {
    if (!frame) frame = requestAnimationFrame(draw);
  }

  /** Finish a running flood at once (a click or a new game comes in). */
  function finishFlood() {
    if (!flood) return;
    flood = null;
    if (frame) cancelAnimationFrame(frame);
    frame = 0;
    draw();
  }

  /** A legend chip: a small canvas drawn like the board's marks. */
  function chip(paint) {
    const c = document.createElement("canvas");
    const px = Math.round(16 * (window.devicePixelRatio || 1));
    c.width = c.height = px;
    c.className = "msviz-chip";
    paint(c.getContext("2d"), px);
    return c;
  }

  function drawLegend() {
    const palette = model.get("palette");
    const words = model.get("words");
    legend.replaceChildren();
    if (!model.get("show_legend")) return;
    const current = chip((g, px) => {
      g.fillStyle = palette.current_border;
      g.fillRect(0, 0, px, px);
      const b = Math.max(2, Math.floor(px / 7));
      g.fillStyle = palette.current;
      g.fillRect(b, b, px - 2 * b, px - 2 * b);
    });
    const order = model.get("order");
    const color = palette[order === "bfs" ? "queue" : "stack"];
    const waitingChip = chip((g, px) => {
      g.fillStyle = palette.face;
      g.fillRect(0, 0, px, px);
      g.strokeStyle = g.fillStyle = color;
      g.lineWidth = Math.max(2, px / 8);
      if (order === "bfs") {
        g.strokeRect(g.lineWidth / 2, g.lineWidth / 2, px - g.lineWidth, px - g.lineWidth);
        g.font = `bold ${Math.round(px * 0.6)}px sans-serif`;
        g.textAlign = "center";
        g.textBaseline = "middle";
        g.fillText("1", px / 2, px / 2 + 1);
      } else {
        g.beginPath();
        g.moveTo(px * 0.15, px * 0.5);
        g.lineTo(px * 0.6, px * 0.5);
        g.stroke();
        triangle(g, px * 0.9, px * 0.5, px * 0.55, px * 0.25, px * 0.55, px * 0.75);
      }
    });
    // A chip and its words; on a narrow board the words wrap beside the chip.
    const item = (c, words) => make("span", "msviz-legend-item", c, make("span", "", words));
    legend.append(item(current, words.legend_current));
    if (model.get("show_frontier") && !model.get("replay")) legend.append(" ", item(waitingChip, words[`legend_${order}`] || words.legend_frontier));
  }

  // Clicks: the cell goes to Python as (row, col); right-click or a modifier plants a flag.
  function cellAt(event) {
    const box = canvas.getBoundingClientRect();
    const col = Math.floor(((event.clientX - box.left) / box.width) * r.cols);
    const row = Math.floor(((event.clientY - box.top) / box.height) * r.rows);
    return row >= 0 && row < r.rows && col >= 0 && col < r.cols ? [row, col] : null;
  }
  function onClick(event, flag) {
    if (!r) return;
    const cell = cellAt(event);
    if (!cell) return;
    event.preventDefault();
    act(cell, flag);
  }
  /** A click on (or Enter at) `cell` = [row, col]: the quiz's guess, or the game's reveal or flag. */
  function act(cell, flag) {
    finishFlood(); // the screen agrees with the board before the click is applied
    if (quiz.on()) {
      if (!flag) quiz.guess(cell[0] * r.cols + cell[1]);
      return;
    }
    model.send({ event: flag ? "flag" : "click", row: cell[0], col: cell[1] });
  }
  const pointer = makePointer(canvas, root, onClick);

  // Keyboard: one step, first and last step, play and pause.
  const playback = makePlayback(model); // the Play widget that drives this view, if any
  const togglePlay = (play) => {
    play.set("playing", !play.get("playing"));
    play.save_changes();
  };
  const end = () => Math.max(last(), model.get("last_step"));
  function setStep(k) {
    model.set("step", Math.max(0, Math.min(k, end())));
    model.save_changes();
  }
  /** The keys of a player: one step, first and last step, play and pause. */
  function stepKeys() {
    const k = Math.min(model.get("step"), end());
    return {
      ArrowRight: () => setStep(k + 1), ArrowLeft: () => setStep(k - 1),
      Home: () => setStep(0), End: () => setStep(Infinity),
      // Space plays where a Play widget drives the view (an exported page plays by its own).
      ...(playback.model() ? { " ": () => togglePlay(playback.model()) } : {}),
    };
  }
  /** The keys of the quiz and the game: move the cursor, act on its cell (f plants a flag in the game). */
  function cellKeys() {
    const here = () => (cursor >= 0 ? [Math.floor(cursor / r.cols), cursor % r.cols] : null);
    const at = (flag) => () => { if (here()) act(here(), flag); else moveCursor(0, 0); };
    return {
      ArrowRight: () => moveCursor(0, 1), ArrowLeft: () => moveCursor(0, -1),
      ArrowDown: () => moveCursor(1, 0), ArrowUp: () => moveCursor(-1, 0),
      Enter: at(false), " ": at(false), ...(quiz.on() ? {} : { f: at(true), F: at(true) }),
    };
  }
  root.addEventListener("keydown", (e) => {
    if (e.target !== root || !r) return; // keys act where focus is: the code's own scrolling, say
    if (e.key === "Escape") { // leave the view's keys: focus goes back to the notebook
      e.preventDefault();
      root.blur();
      return;
    }
    const keys = pointing() ? cellKeys() : model.get("keyboard") && last() >= 0 ? stepKeys() : {};
    if (keys[e.key] && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      e.stopPropagation();
      keys[e.key]();
    }
  });
  // The cursor shows only while the view has the keys.
  for (const name of ["focus", "blur"]) root.addEventListener(name, () => { marked = undefined; request(); });

  // Tests and the benchmark read what is drawn through this handle.
  root.msviz = {
    step: () => (drawn ? drawn[0] : null),
    event: () => (drawn ? drawn[1] : null),
    line: () => codePanel.line(),
    frames: () => frames.textContent,
    waiting: () => (drawn && r ? waiting(r, drawn[1]).map((k) => [Math.floor(r.cell[k] / r.cols), r.cell[k] % r.cols]) : []),
    sprites: () => Array.from(tiles.shown(), (sp) => sp % TILES),
    variants: () => Array.from(tiles.shown(), (sp) => Math.floor(sp / TILES)),
    caption: () => text.textContent,
    cellSize: () => tiles.side(),
    /** Draw every cell again at once; return the milliseconds it took (the benchmark's full redraw). */
    redrawAll: () => {
      const t0 = performance.now();
      tiles.drawAll(drawn[1], drawn[2]);
      return performance.now() - t0;
    },
    rows: () => r.rows,
    cols: () => r.cols,
    animating: () => flood !== null,
    quiz: () => ({ rule: quizRule.textContent, verdict: quizVerdict.textContent, score: quizScore.textContent,
                   right: model.get("quiz_right"), tries: model.get("quiz_tries"), returned: model.get("quiz_returned"),
                   waiting: drawn ? waiting(r, drawn[1]).map((k) => r.cell[k]) : [] }),
  };

  model.on("change:step", request);
  model.on("change:generation", request);
  const redraw = () => { drawn = null; request(); };
  model.on("change:show_mines", redraw);
  model.on("change:show_frontier", () => { drawLegend(); redraw(); });
  model.on("change:mode", redraw);
  model.on("change:flags", () => { if (r) { tiles.readFlags(); redraw(); } });
  model.on("change:title", request);
  model.on("change:quiz", request);
  model.on("change:quiz_right", request);
  model.on("change:quiz_returned", request);
  model.on("change:quiz_tries", () => { if (!model.get("quiz_tries")) quiz.forget(); request(); }); // started again
  model.on("change:max_cell", request);
  model.on("change:palette", () => { tiles.repaint(); paletteToCss(); drawLegend(); redraw(); });
  model.on("change:show_legend", drawLegend);
  model.on("change:order", drawLegend);
  model.on("change:code", () => { buildCode(); redraw(); });
  paletteToCss();
  buildCode();
  const resize = new ResizeObserver(() => request());
  resize.observe(root);
  // A notebook skips the layout of cells out of sight: once in sight again, the code's
  // window is scrolled to its running line again (and the room is measured again).
  const sight = new IntersectionObserver((seen) => { if (seen.some((x) => x.isIntersecting)) { arrangement = ""; request(); } });
  sight.observe(root);
  drawLegend();
  draw();
  // The controls around the view are named once the view is in its output (a notebook may add it later).
  let tries = 600;
  const attached = () => { if (root.closest(".jp-OutputArea-output, .output_subarea")) names.watch(); else if (--tries > 0) requestAnimationFrame(attached); };
  attached();
  return () => {
    resize.disconnect();
    sight.disconnect();
    names.dispose();
    playback.dispose();
    voice.dispose();
    pointer.dispose();
    if (frame) cancelAnimationFrame(frame);
  };
}

export default { render };
