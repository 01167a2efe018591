// msviz/page.js: an exported page's controls, around the same board view as in Jupyter.
//
// msviz/export.py writes one self-contained HTML page: this script, the view's
// ES module (msviz/view.js) as text, and each board's traits as JSON (binary
// arrays in base64). There is no kernel: a small stand-in for the widget model
// holds the traits, and the controls here (play, step, slider, speed) set its
// `step`, as the ipywidgets controls do in a notebook. Nothing is fetched.

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

// Icons drawn as inline SVG paths (no icon font, nothing fetched).
const ICONS = {
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  back: "M13 2v12L5 8zM3 2h2v12H3z",
  play: "M4 2l10 6-10 6z",
  pause: "M3 2h4v12H3zM9 2h4v12H9z",
  forward: "M3 2v12l8-6zM11 2h2v12h-2z",
  last: "M2 2v12l8-6zM11 2h2v12h-2z",
};

function button(name, label) {
  const b = document.createElement("button");
  b.type = "button";
  b.title = label;
  b.setAttribute("aria-label", label);
  b.dataset.control = name;
  b.innerHTML = `<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="${ICONS[name]}"/></svg>`;
  return b;
}

function labelled(text, input) {
  const label = document.createElement("label");
  label.append(text, input);
  return label;
}

export async function start({ viewSource, boards, binary, controls, holder }) {
  const url = URL.createObjectURL(new Blob([viewSource], { type: "text/javascript" }));
  const view = (await import(url)).default;
  const models = (await Promise.all(boards.map((state) => decode(state, binary)))).map((state) => new PageModel(state));
  for (const model of models) {
    const el = document.createElement("div");
    el.className = "msviz-page-board";
    holder.appendChild(el);
    view.render({ model, el });
  }
  // The last position: of the steps, or of the events in mode "events".
  const lastOf = () =>
    Math.max(...models.map((m) => m.get(m.get("mode") === "events" ? "event_step" : "step_cell").byteLength / 4)) - 1;
  let last = lastOf();

  // The controls: first, back, play/pause, forward, last, a slider, speed and steps per frame.
  const buttons = ["first", "back", "play", "forward", "last"].map((name) =>
    button(name, { first: "first step (Home)", back: "one step back (left arrow)", play: "play (space)",
                   forward: "one step on (right arrow)", last: "last step (End)" }[name]));
  const slider = Object.assign(document.createElement("input"), { type: "range", min: 0, max: Math.max(last, 0), value: 0 });
  slider.setAttribute("aria-label", "step");
  const readout = document.createElement("output");
  const fps = Object.assign(document.createElement("input"), { type: "number", min: 1, max: 60, value: controls.fps });
  const perFrame = Object.assign(document.createElement("input"), { type: "number", min: 1, value: controls.per_frame });
  const mode = document.createElement("select");
  mode.setAttribute("aria-label", "what one step is");
  mode.append(new Option("one step per revealed cell", "visits"), new Option(controls.events_name, "events"));
  const bar = document.createElement("div");
  bar.className = "msviz-controls";
  bar.append(...buttons, slider, readout, labelled("frames/s ", fps), labelled("steps/frame ", perFrame), mode);
  // The controls and the boards in one frame: a view keeps itself and the controls in sight together.
  const frame = document.createElement("div");
  frame.dataset.msvizFrame = "";
  holder.before(frame);
  frame.append(bar, holder);

  let playing = false;
  let clock = null;
  const step = () => models[0].get("step");
  function show(k) {
    k = Math.max(0, Math.min(k, last));
    for (const m of models) m.set("step", k);
    slider.value = String(k);
    readout.textContent = `${models[0].get("mode") === "events" ? "event" : "step"} ${k} / ${last}`;
  }
  function setPlaying(on) {
    playing = on && last > 0;
    buttons[2].innerHTML = buttons[2].innerHTML.replace(/d="[^"]*"/, `d="${playing ? ICONS.pause : ICONS.play}"`);
    const name = playing ? "pause (space)" : "play (space)"; // the button says what it does now
    buttons[2].title = name;
    buttons[2].setAttribute("aria-label", name);
    if (playing) {
      if (step() >= last) show(0);
      clock = performance.now();
      requestAnimationFrame(tick);
    }
  }
  // Play: every 1000/fps ms, move `steps/frame` steps; always end on the last step.
  function tick(now) {
    if (!playing) return;
    const interval = 1000 / Math.max(1, Math.min(60, Number(fps.value) || 10));
    if (now - clock >= interval - 1) {
      clock = now;
      show(step() + Math.max(1, Number(perFrame.value) || 1));
      if (step() >= last) return setPlaying(false);
    }
    requestAnimationFrame(tick);
  }
  const actions = {
    first: () => show(0), back: () => show(step() - 1), play: () => setPlaying(!playing),
    forward: () => show(step() + 1), last: () => show(last),
  };
  buttons.forEach((b) => b.addEventListener("click", () => actions[b.dataset.control]()));
  slider.addEventListener("input", () => show(Number(slider.value)));
  // The other mode shows the same moment: a step as its event, an event as the step it belongs to.
  function setMode(value) {
    const m0 = models[0];
    const ints = (name) => new Int32Array(m0.get(name).buffer.slice(m0.get(name).byteOffset));
    let k = step();
    if (value === "events") k = k < 0 ? 0 : ints("visit_event")[Math.min(k, ints("visit_event").length - 1)];
    else if (value === "visits") k = ints("event_step")[Math.min(k, ints("event_step").length - 1)] ?? 0;
    for (const m of models) m.set("mode", value);
    mode.value = value;
    last = lastOf();
    slider.max = String(Math.max(last, 0));
    for (const m of models) m.set("last_step", last);
    show(k);
  }
  mode.addEventListener("change", () => setMode(mode.value));
  // A board's own keys (left/right, Home/End) move its model: every board and the slider follow.
  for (const m of models) m.on("change:step", () => show(m.get("step")));
  // Space plays or pauses on the page itself or on a board; a focused button, picker or
  // field keeps its own Space.
  document.addEventListener("keydown", (e) => {
    const onPage = e.target === document.body || e.target.classList?.contains("msviz-view");
    if (e.key === " " && onPage && !e.defaultPrevented) {
      e.preventDefault();
      actions.play();
    }
  });
  show(Number(controls.step));
  return { models, show, setPlaying, setMode, isPlaying: () => playing, last: () => last };
}
