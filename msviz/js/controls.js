// msviz/js/controls.js: the control bar of a player or a comparison, and its play clock.
//
// One bar moves every board of a stage: it sets the model's `step` (each board draws that
// step by itself), and Play runs here, on the page's animation frames, so that it keeps its
// pace with no kernel and no other widget. The bar's state is the model's traits: `step`,
// `playing`, `fps`, `per_frame`, `mode`; Python may set any of them, and the bar follows.
// While Play runs, the step is saved to the kernel twice a second (and once when it stops),
// so the kernel stays nearly idle however fast it plays.
import { make } from "./parts.js";

export const SAVE_MS = 500; // while playing, the kernel hears of the step this often

// Icons drawn as inline SVG paths (no icon font, nothing fetched).
export const ICONS = {
  first: "M3 2h2v12H3zM14 2v12L6 8z",
  back: "M13 2v12L5 8zM3 2h2v12H3z",
  play: "M4 2l10 6-10 6z",
  pause: "M3 2h4v12H3zM9 2h4v12H9z",
  forward: "M3 2v12l8-6zM11 2h2v12h-2z",
  last: "M2 2v12l8-6zM11 2h2v12h-2z",
};

/** The play clock's arithmetic, apart from the DOM: Play started at `t0` and has made `moves`
 *  moves; at time `now`, with a move due every `period` ms, return the moves made once this frame
 *  is done. A move is at most one a frame; a quarter period early counts as on time; a clock
 *  behind by more than a move catches up its count, not the steps (a late frame does not pile
 *  moves up behind it). */
export function movesAfter(t0, now, period, moves) {
  const due = Math.floor((now - t0) / period + 0.25);
  return due <= moves ? moves : Math.max(moves + 1, due - 1);
}

/** The step a Play move goes to from step k: `per` steps on, but always ending on `last`. */
export function nextStep(k, per, last) {
  return Math.min(last, Math.max(0, k) + Math.max(1, per));
}

/** The "Edit the board" switch of a player in a notebook (a page has no kernel to edit with): it
 *  turns the model's `editing` on and off; while on, a click on a cell goes to Python as an edit. */
function editSwitch(model, words) {
  const edit = make("button", "msviz-button msviz-edit", words.control_edit);
  edit.type = "button";
  edit.dataset.control = "edit";
  edit.addEventListener("click", () => {
    model.set("editing", !model.get("editing"));
    model.save_changes();
  });
  return edit;
}

/** An icon button: its name in data-control, its words as its accessible name and tooltip. */
export function iconButton(name, label) {
  const b = make("button", "msviz-button");
  b.type = "button";
  b.dataset.control = name;
  b.innerHTML = `<svg width="16" height="16" viewBox="0 0 16 16" aria-hidden="true"><path d="${ICONS[name]}"/></svg>`;
  nameIt(b, label);
  return b;
}

export function nameIt(node, label) {
  node.title = label;
  node.setAttribute("aria-label", label);
}

/** A number field in a label. */
export function numberField(name, label, min, max) {
  const input = make("input", "");
  Object.assign(input, { type: "number", min, max });
  input.dataset.control = name;
  return [input, make("label", "msviz-field", `${label} `, input)];
}

/** The bar of `model`'s stage. `stage` tells what it drives: {last() (the last position of the
 *  mode shown, over every board), convert(k, mode) (position k shown in the other mode), names
 *  (what one step is in mode "events")}. Returns {bar, draw, show(k), setPlaying(on), setMode(mode),
 *  dispose}. */
export function makeControls(model, stage) {
  const words = model.get("words");
  const buttons = Object.fromEntries(
    ["first", "back", "play", "forward", "last"].map((name) => [name, iconButton(name, words[name === "play" ? "play_play" : `control_${name}`])]),
  );
  const scrub = make("input", "msviz-scrub");
  Object.assign(scrub, { type: "range", min: 0, step: 1 });
  scrub.dataset.control = "scrub";
  scrub.setAttribute("aria-label", words.control_scrub);
  const readout = make("output", "msviz-readout");
  readout.dataset.control = "readout";
  const [fps, fpsLabel] = numberField("fps", words.control_fps, 1, 60);
  const [perFrame, perLabel] = numberField("per_frame", words.control_per_frame, 1, 100000);
  const mode = make("select", "msviz-mode");
  mode.dataset.control = "mode";
  mode.setAttribute("aria-label", words.control_mode);
  mode.append(new Option(words.mode_visits, "visits"), new Option(stage.names, "events"));
  const { first, back, play, forward, last } = buttons;
  const edit = editSwitch(model, words);
  const bar = make("div", "msviz-controls", first, back, play, forward, last, scrub, readout, mode, fpsLabel, perLabel, edit);
  bar.setAttribute("role", "group");
  // The bar's own keys (arrows on the scrub bar, the picker) stay in it: a notebook in command mode
  // would take them for its own shortcuts. Escape still goes on, to give the keys back.
  const ownKeys = (e) => { if (e.key !== "Escape") e.stopPropagation(); };
  bar.addEventListener("keydown", ownKeys);
  bar.setAttribute("aria-label", words.controls_name);

  const step = () => Math.max(0, Math.min(model.get("step"), stage.last()));
  let saved = 0; // when the step was last saved to the kernel while playing
  /** Show position k on every board (the model's step); while playing, save it now and then. */
  function show(k, now = performance.now()) {
    model.set("step", Math.max(0, Math.min(k, stage.last())));
    if (!model.get("playing") || now - saved >= SAVE_MS) {
      saved = now;
      model.save_changes();
    }
  }
  function setPlaying(on) {
    model.set("playing", Boolean(on) && stage.last() > 0);
    model.save_changes();
  }

  // ---- the clock: a move every 1000 / fps ms, on animation frames, from the moment Play starts
  let frame = 0;
  let t0 = 0;
  let moves = 0;
  function tick(now) {
    frame = 0;
    if (!model.get("playing")) return;
    const period = 1000 / Math.max(1, Math.min(60, model.get("fps") || 10));
    const after = movesAfter(t0, now, period, moves);
    if (after > moves) {
      moves = after;
      const k = nextStep(step(), model.get("per_frame") || 1, stage.last());
      show(k, now);
      if (k >= stage.last()) {
        setPlaying(false); // Play stops by itself at the end, on the last step
        return;
      }
    }
    frame = requestAnimationFrame(tick);
  }
  function onPlaying() {
    if (model.get("playing")) {
      if (step() >= stage.last()) show(0); // Play at the end starts again from the first step
      t0 = performance.now();
      moves = 0;
      if (!frame) frame = requestAnimationFrame(tick);
    } else {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      model.save_changes(); // the kernel hears where Play stopped
    }
    draw();
  }

  /** Show the same moment in the other mode: a step as its event, an event as the step it belongs to. */
  function setMode(value) {
    const k = stage.convert(step(), value);
    model.set("mode", value);
    model.set("last_step", Math.max(stage.last(), 0));
    show(k);
    model.save_changes();
  }

  function draw() {
    const lastK = Math.max(stage.last(), 0);
    const k = step();
    const empty = stage.last() < 0;
    scrub.max = String(lastK);
    scrub.value = String(k);
    const said = (mode.value = model.get("mode") === "events" ? "events" : "visits") === "events" ? "readout_events" : "readout_visits";
    readout.textContent = words[said].replace("{k}", String(k)).replace("{last}", String(lastK));
    scrub.setAttribute("aria-valuetext", readout.textContent);
    const playing = Boolean(model.get("playing"));
    play.querySelector("path").setAttribute("d", playing ? ICONS.pause : ICONS.play);
    nameIt(play, playing ? words.play_pause : words.play_play); // the button says what it does now
    play.setAttribute("aria-pressed", String(playing));
    if (document.activeElement !== fps) fps.value = String(model.get("fps"));
    if (document.activeElement !== perFrame) perFrame.value = String(model.get("per_frame"));
    for (const control of [first, back, play, forward, last, scrub, mode, fps, perFrame]) control.disabled = empty;
    edit.style.display = model.get("editable") ? "" : "none";
    edit.textContent = model.get("editing") ? words.control_edit_done : words.control_edit; // says what it does
  }

  const actions = {
    first: () => show(0),
    back: () => show(step() - 1),
    play: () => setPlaying(!model.get("playing")),
    forward: () => show(step() + 1),
    last: () => show(stage.last()),
  };
  for (const [name, b] of Object.entries(buttons)) b.addEventListener("click", () => actions[name]());
  scrub.addEventListener("input", () => show(Number(scrub.value)));
  mode.addEventListener("change", () => setMode(mode.value));
  /** A number typed in a field: kept within its limits, then set (an empty or bad field is put back). */
  const field = (input, name, most) => () => {
    const value = Math.round(Number(input.value));
    if (input.value !== "" && Number.isFinite(value)) {
      model.set(name, Math.max(1, Math.min(most, value)));
      model.save_changes();
    }
  };
  const onFps = field(fps, "fps", 60);
  const onPer = field(perFrame, "per_frame", 100000);
  fps.addEventListener("change", onFps);
  perFrame.addEventListener("change", onPer);
  for (const input of [fps, perFrame]) input.addEventListener("blur", draw);
  const traits = ["step", "fps", "per_frame", "mode", "generation", "last_step", "editable", "editing"];
  for (const name of traits) model.on(`change:${name}`, draw);
  model.on("change:playing", onPlaying);
  draw();
  if (model.get("playing")) onPlaying();
  return {
    bar,
    draw,
    show,
    setPlaying,
    setMode,
    dispose() {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      for (const name of traits) model.off(`change:${name}`, draw);
      model.off("change:playing", onPlaying);
    },
  };
}
