// msviz/js/page.js: a rendition's start: the same stage as in a notebook, with no kernel.
//
// msviz/rendition.py writes one self-contained piece of HTML for each widget (and
// msviz/export.py a page around one): the front end's parts joined with this one
// (msviz/frontend.py), and the stage's traits as JSON (binary arrays gzip'd in base64).
// There is no kernel: a small stand-in for the widget model holds the traits, and the stage
// draws its boards and its own control bar from them, as in a notebook. What the view sends
// to a kernel goes to the page's own answer for its kind (HOSTS: offline.js, practice.js),
// which looks up what Python computed. Nothing is fetched.
import { nextTask } from "./parts.js";
import { LABEL, readFirst, readSoon } from "./reveal.js";
import { boardModel, positions, renderStage } from "./stage.js";

/** A widget model without a kernel: get, set, on, and no-op saves and sends. */
export class PageModel {
  constructor(state) {
    this.state = state;
    this.listeners = {};
  }
  get(name) {
    return this.state[name];
  }
  set(name, value) {
    if (this.state[name] === value) return;
    this.state[name] = value;
    for (const cb of this.listeners[`change:${name}`] || []) cb();
  }
  on(event, cb) {
    (this.listeners[event] ||= []).push(cb);
  }
  off(event, cb) {
    this.listeners[event] = (this.listeners[event] || []).filter((f) => f !== cb);
  }
  save_changes() {}
  send() {}
}

/** The bytes of base64 text: the browser's own decoder where it has one, else a plain loop
 *  (many times faster than Uint8Array.from with a map). */
function fromBase64(text) {
  if (Uint8Array.fromBase64) return Uint8Array.fromBase64(text);
  const chars = atob(text);
  const bytes = new Uint8Array(chars.length);
  for (let i = 0; i < chars.length; i++) bytes[i] = chars.charCodeAt(i);
  return bytes;
}

/** The bytes of gzip'd base64 text, opened by the browser's own DecompressionStream: the first
 *  `want` of them (all of them, if it has fewer), and whether that is all. Only as much of the text
 *  is decoded and inflated as they need, a piece at a time; the whole text is one piece when all is
 *  wanted. The bytes go into the stream as they are (a Blob's stream would be read back through the
 *  browser's blob store, a round trip of several tasks a field). */
async function unzip(text, want = Infinity) {
  const piece = want === Infinity ? text.length : 1 << 16; // base64 characters (a multiple of 4)
  let at = 0;
  const pieces = new ReadableStream({
    pull(c) {
      if (at >= text.length) c.close();
      else c.enqueue(fromBase64(text.slice(at, (at += piece))));
    },
  }, { highWaterMark: 0 });
  const reader = pieces.pipeThrough(new DecompressionStream("gzip")).getReader();
  const chunks = [];
  let size = 0;
  let whole = false;
  while (size < want && !whole) {
    const { value, done } = await reader.read();
    if (done) whole = true;
    else {
      chunks.push(value);
      size += value.byteLength;
    }
  }
  if (!whole) reader.cancel(); // the rest is not inflated
  const bytes = new Uint8Array(size);
  chunks.reduce((offset, chunk) => (bytes.set(chunk, offset), offset + chunk.byteLength), 0);
  return { bytes, whole };
}

/** A promise kept in a next task: the page breathes (paints, takes input) in between. The browser's
 *  own scheduler.yield where it has one, else nextTask. */
function breathe() {
  if (globalThis.scheduler?.yield) return globalThis.scheduler.yield();
  return new Promise((next) => nextTask(next));
}

/** Turn each gzip'd base64 field named in `binary` into a DataView, as a kernel's buffers arrive.
 *  One field's base64 a task, so that a big page never stops the browser for long; the fields
 *  inflate side by side meanwhile (each waits for none of the others). */
async function decode(state, binary) {
  const opened = [];
  for (const name of binary) {
    if (typeof state[name] !== "string") continue; // a board of `others` without it: the stage's
    opened.push(unzip(state[name]).then(({ bytes }) => { state[name] = new DataView(bytes.buffer); }));
    await breathe(); // let the page breathe between fields
  }
  await Promise.all(opened);
  return state;
}

/** The fields of a reveal a first picture needs only the start of, and the bytes each has an event
 *  at most (a step is at least one event). */
const HEADS = { step_cell: 4, event_label: 1, step_hidden: 1, step_turn: 1 };

/** Decode one board's fields (`board`, in place) for its first picture, of `events` events: each
 *  whole, except the per-event and per-step fields of a long reveal (not a student's run, read
 *  whole), of which only the start. A board sent with no `step_cell` has its cells rebuilt from
 *  those (rebuildCells); `stage` has what a board lacks. Returns what is left to do: {texts:
 *  {name: text} to decode (empty if nothing), rebuilt: whether the cells are to be rebuilt then}.
 *  A reveal of at most 4 x `events` events is read whole: the rest would come too soon to be
 *  worth a second drawing. */
async function decodeFirst(board, binary, events, stage) {
  const replay = Boolean(board.replay ?? stage.replay);
  const cut = replay ? [] : binary.filter((name) => name in HEADS && typeof board[name] === "string");
  const texts = Object.fromEntries(cut.map((name) => [name, board[name]]));
  const heads = Promise.all(cut.map((name) => unzip(texts[name], 4 * events * HEADS[name])));
  await decode(board, binary.filter((name) => !cut.includes(name)));
  const opened = await heads;
  cut.forEach((name, i) => { board[name] = new DataView(opened[i].bytes.buffer); });
  const rebuilt = board.step_cell === null;
  if (rebuilt) rebuildCells(board, stage);
  return { texts: opened.every((head) => head.whole) ? {} : texts, rebuilt };
}

/** Give `board` its `step_cell` where the page was sent none (rendition.py's `packed`, where
 *  Python found each step's cell to be its caller's moved by the neighbour in `step_turn`): each
 *  rebuilt so, from the events and the turns, as far as they go (their start, or all). The caller
 *  is the call open (depth-first), or the step taken out of the queue last (breadth-first), as in
 *  reveal.js's timeline; `stage` has what a board lacks (its neighbours, click, width). */
function rebuildCells(board, stage) {
  const get = (name) => board[name] ?? stage[name];
  const cols = get("cols");
  const [row, col] = get("click_cell");
  const offset = get("neighbors").map(([dr, dc]) => dr * cols + dc);
  const bytes = (view) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
  const label = bytes(get("event_label"));
  const turn = bytes(get("step_turn"));
  const cell = new Int32Array(turn.length);
  const stack = new Int32Array(turn.length);
  let [top, entered, taken] = [0, 0, 0];
  for (let e = 0; e < label.length && entered < turn.length; e++) {
    const l = label[e];
    if (l === LABEL.call || l === LABEL.enqueue) {
      const k = entered++;
      const by = l === LABEL.call ? (top > 0 ? stack[top - 1] : -1) : taken - 1;
      cell[k] = by < 0 ? row * cols + col : cell[by] + offset[turn[k] - 1];
      if (l === LABEL.call) stack[top++] = k;
    } else if (l === LABEL.return) top--;
    else if (l === LABEL.dequeue) taken++;
  }
  board.step_cell = new DataView(cell.buffer, 0, 4 * entered);
}

/** What answers a view's messages on a page, by the rendition's kind: `HOSTS[kind](model, table)`
 *  returns the model's `send` (offline.js and practice.js add theirs). */
export const HOSTS = {};

/** Start one rendition in `holder`: its stage (or a bank) drawn, messages answered by its kind's
 *  host, and the still picture a host with no scripts shows hidden. Returns the page's handle. */
export async function startRendition({ holder, kind, stage, binary, table: packed }) {
  const where = holder.querySelector(".msviz-holder");
  const table = packed ? JSON.parse(new TextDecoder().decode((await unzip(packed)).bytes)) : null;
  const handle = kind === "bank" ? HOSTS.bank(where, stage, table) : await start({ stage, binary, holder: where, kind, table });
  for (const still of holder.querySelectorAll(".msviz-static")) still.style.display = "none";
  return handle;
}

/** Start the page: each board's traits decoded, then one stage (the first board's traits, the
 *  others in `others`, as a comparison's in a notebook) drawn into `holder`, with its own
 *  control bar: the same module that draws a widget in a notebook. A long reveal shows its first
 *  picture from its first events (decodeFirst, readFirst), then the rest is inflated and read a
 *  slice a task (readSoon: a million cells never hold the page for long), and the control bar,
 *  which needs the whole, is built. */
export async function start({ stage: state, binary, holder, kind = "stage", table = null }) {
  const events = 2 * Math.max(0, state.step) + 4096; // enough for the step the page opens at
  const states = [state, ...(state.others || [])];
  const later = await Promise.all(states.map((board) => decodeFirst(board, binary, events, state)));
  const early = later.some(({ texts }) => Object.keys(texts).length > 0);
  const model = new PageModel(state);
  if (HOSTS[kind]) model.send = HOSTS[kind](model, table);
  const boards = states.map((_, i) => boardModel(model, i));
  const first = early ? boards.map((board) => readFirst(board, events)) : [];
  if (early) await breathe(); // the first events read in a task of their own, then the drawing
  const withBar = model.get("controls");
  if (early) model.state.controls = false; // the bar once the whole reveal is read
  renderStage({ model, el: holder });
  const stage = holder.querySelector(".msviz-stage");
  if (early) {
    await breathe(); // the first picture shown before the rest is read
    for (const [i, { texts, rebuilt }] of later.entries()) {
      Object.assign(states[i], await decode({ ...texts }, Object.keys(texts)));
      await breathe(); // the cells rebuilt in a task of their own
      if (rebuilt) rebuildCells(states[i], state);
      await breathe();
    }
    for (const [i, board] of boards.entries()) await readSoon(board, breathe, first[i]);
    model.set("controls", withBar);
    for (const view of stage.msviz.boards()) view.relayout(); // a step moved meanwhile
  }
  const bar = stage.msviz.controls();
  // Space on the page itself plays or pauses, as on a board (a focused control keeps its own Space):
  // the first player of the page.
  document.addEventListener("keydown", (e) => {
    if (bar && e.key === " " && e.target === document.body && !e.defaultPrevented) {
      e.preventDefault();
      model.set("playing", !model.get("playing"));
    }
  });
  // What a test or a reader's console may drive: the same calls as the bar's buttons.
  return {
    model,
    stage,
    models: stage.msviz.models(),
    show: (k) => bar?.show(k),
    setPlaying: (on) => bar?.setPlaying(on),
    isPlaying: () => Boolean(model.get("playing")),
    setMode: (mode) => bar?.setMode(mode),
    last: () => Math.max(...stage.msviz.models().map((m) => positions(m, model.get("mode")))) - 1,
  };
}
