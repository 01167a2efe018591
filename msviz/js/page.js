// msviz/js/page.js: an exported page's start: the same stage as in a notebook, with no kernel.
//
// msviz/export.py writes one self-contained HTML page: the front end's parts joined with this
// one (msviz/frontend.py), and the stage's traits as JSON (binary arrays gzip'd in base64).
// There is no kernel: a small stand-in for the widget model holds the traits, and the stage
// draws its boards and its own control bar from them, as in a notebook. Nothing is fetched.
import { positions, renderStage } from "./stage.js";

/** A widget model without a kernel: get, set, on, and no-op saves and sends. */
class PageModel {
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

/** Turn each gzip'd base64 field named in `binary` into a DataView, as a kernel's buffers arrive.
 *  One field a task, so that a big page never stops the browser for long. */
async function decode(state, binary) {
  const opened = [];
  for (const name of binary) {
    await new Promise((next) => setTimeout(next)); // let the page breathe between fields
    const stream = new Blob([fromBase64(state[name])]).stream().pipeThrough(new DecompressionStream("gzip"));
    opened.push(new Response(stream).arrayBuffer().then((buffer) => { state[name] = new DataView(buffer); }));
  }
  await Promise.all(opened);
  return state;
}

/** Start the page: each board's traits decoded, then one stage (the first board's traits, the
 *  others in `others`, as a comparison's in a notebook) drawn into `holder`, with its own
 *  control bar: the same module that draws a widget in a notebook. */
export async function start({ stage: state, binary, holder }) {
  const first = await decode(state, binary);
  first.others = await Promise.all((first.others || []).map((board) => decode(board, binary)));
  const model = new PageModel(first);
  renderStage({ model, el: holder });
  const stage = holder.querySelector(".msviz-stage");
  const bar = stage.msviz.controls();
  // Space on the page itself plays or pauses, as on a board (a focused control keeps its own Space).
  document.addEventListener("keydown", (e) => {
    if (e.key === " " && e.target === document.body && !e.defaultPrevented) {
      e.preventDefault();
      model.set("playing", !model.get("playing"));
    }
  });
  // What a test or a reader's console may drive: the same calls as the bar's buttons.
  return {
    model,
    stage,
    models: stage.msviz.models(),
    show: (k) => bar.show(k),
    setPlaying: (on) => bar.setPlaying(on),
    isPlaying: () => Boolean(model.get("playing")),
    setMode: (mode) => bar.setMode(mode),
    last: () => Math.max(...stage.msviz.models().map((m) => positions(m, model.get("mode")))) - 1,
  };
}
