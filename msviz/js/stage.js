// msviz/js/stage.js: a whole msviz widget: its boards, one control bar, a status line.
//
// Every msviz widget (player, comparison, game, quiz) is one anywidget, drawn here: no
// ipywidgets around it, so it is the same in JupyterLab, Notebook 6 and 7, VS Code, Colab,
// Voila, marimo and an exported page. The model's own traits are the first board's; a
// comparison's second board is in `others` (a list of boards' own traits: their arrays, title
// and code), and shares the rest (the step, mode, palette, words) with the first. Above the
// boards: a restart button and a status line (the game's words) where there are any, and the
// control bar where `controls` is on; under them, an error raised in Python by a click.
import { renderBoard } from "./board.js";
import { makeControls } from "./controls.js";
import { sideBySide } from "./layout.js";
import { make } from "./parts.js";
import { readReveal, typed } from "./reveal.js";

/** The model of board `index` of a stage: the first board's is the stage's own; another's reads
 *  its own traits from `others[index - 1]` and the rest from the stage, sets the stage's
 *  (the step), and sends its clicks with its index. */
export function boardModel(model, index) {
  if (index === 0) return model;
  const own = () => (model.get("others") || [])[index - 1] || {};
  const heard = new Map(); // a listener, and the wrapper that hears the stage's `others` change too
  return {
    get: (name) => (name in own() ? own()[name] : model.get(name)),
    set: (name, value) => model.set(name, value),
    save_changes: () => model.save_changes(),
    send: (content) => model.send({ ...content, board: index }),
    on(event, cb) {
      model.on(event, cb);
      if (event.startsWith("change:")) {
        const wrapped = () => cb();
        heard.set(cb, wrapped);
        model.on("change:others", wrapped);
      }
    },
    off(event, cb) {
      model.off(event, cb);
      if (heard.has(cb)) model.off("change:others", heard.get(cb));
      heard.delete(cb);
    },
  };
}

/** The number of positions of one board in `mode`: its steps, or its events. */
export function positions(board, mode) {
  return mode === "events" ? typed(board, "event_label", Uint8Array).length : typed(board, "step_cell", Int32Array).length;
}

/** Position k of a board shown in mode `to`: a step as its event, an event as its step. */
function convert(board, k, to) {
  const r = readReveal(board);
  const [from, n] = to === "events" ? [r.visitEvent, r.n] : [r.eventStep, r.m];
  return n ? from[Math.min(Math.max(k, 0), n - 1)] : 0;
}

/** The top line: a restart button (its words from `restart`; none if empty) and the status. */
export function makeHead(model) {
  const restart = make("button", "msviz-button msviz-restart");
  restart.type = "button";
  restart.dataset.control = "restart";
  const status = make("div", "msviz-status");
  status.setAttribute("role", "status");
  const head = make("div", "msviz-head", restart, status);
  const onRestart = () => model.send({ event: "restart" });
  restart.addEventListener("click", onRestart);
  function draw() {
    const label = model.get("restart") || "";
    restart.textContent = label;
    restart.style.display = label ? "" : "none";
    status.textContent = model.get("status") || "";
    status.style.display = model.get("status") ? "" : "none";
    head.style.display = label || model.get("status") ? "" : "none";
  }
  return { head, draw, dispose: () => restart.removeEventListener("click", onRestart) };
}

/** The room the boards of a stage have: side by side while they fit (sideBySide), else one under
 *  another; and each arranged again when what is above them (the status line, the bar) changes its
 *  height (a status of Python's, a bar wrapped on more lines). Returns the ResizeObserver. */
function makeRoom(boards, models, head) {
  let width = -1;
  const above = new Map(); // the heights last seen of what is above the boards
  const room = new ResizeObserver((seen) => {
    if (boards.clientWidth !== width) {
      width = boards.clientWidth;
      const stacked = models.length > 1 && !sideBySide(width, models.map((m) => m.get("cols")));
      boards.classList.toggle("msviz-boards-stacked", stacked);
    }
    const moved = seen.filter((s) => s.target !== boards && above.get(s.target) !== s.target.offsetHeight);
    for (const s of moved) above.set(s.target, s.target.offsetHeight);
    if (moved.length) for (const view of boards.querySelectorAll(".msviz-view")) view.msviz?.relayout();
  });
  for (const part of [boards, head]) room.observe(part);
  return room;
}

/** Draw the widget of `model` into `el`: its boards, bar and status. Returns the clean-up. */
export function renderStage({ model, el }) {
  const stage = make("div", "msviz-stage");
  stage.dataset.msvizFrame = ""; // a board keeps itself and the bar above it in sight together
  const lang = (model.get("words") || {}).lang;
  if (lang) stage.setAttribute("lang", lang); // its bar and status line too are in its words' language
  const boards = make("div", "msviz-boards");
  const error = make("pre", "msviz-error");
  error.setAttribute("role", "alert");
  const head = makeHead(model);
  stage.append(head.head, boards, error);
  el.appendChild(stage);
  const count = 1 + (model.get("others") || []).length;
  const models = Array.from({ length: count }, (_, i) => boardModel(model, i));
  const undo = models.map((board) => {
    const holder = make("div", "msviz-board-holder");
    boards.append(holder);
    return renderBoard({ model: board, el: holder });
  });
  let controls = null;
  /** The control bar while `controls` is on (a simulation turns it on at its end, for the model answer). */
  function syncControls() {
    if (Boolean(model.get("controls")) === Boolean(controls)) return;
    if (controls) {
      controls.dispose();
      controls.bar.remove();
      controls = null;
      return;
    }
    const mode = () => (model.get("mode") === "events" ? "events" : "visits");
    const names = [...new Set(models.map((m) => model.get("words")[`events_${m.get("replay") ? "replay" : m.get("order") || "dfs"}`]))];
    controls = makeControls(model, {
      last: () => Math.max(...models.map((m) => positions(m, mode()))) - 1,
      convert: (k, to) => convert(models[0], k, to),
      names: names.join(" / "),
    });
    stage.insertBefore(controls.bar, boards);
    room.observe(controls.bar);
  }
  const room = makeRoom(boards, models, head.head);
  syncControls();
  const drawError = () => {
    error.textContent = model.get("error") || "";
    error.style.display = model.get("error") ? "" : "none";
  };
  const heard = {
    "change:status": head.draw, "change:restart": head.draw, "change:error": drawError, "change:controls": syncControls,
  };
  for (const [event, cb] of Object.entries(heard)) model.on(event, cb);
  head.draw();
  drawError();
  // Tests and the benchmark read the stage through this handle (each board has its own too).
  stage.msviz = {
    playing: () => Boolean(model.get("playing")),
    step: () => model.get("step"),
    boards: () => Array.from(boards.querySelectorAll(".msviz-view"), (v) => v.msviz),
    models: () => models,
    controls: () => controls,
  };
  return () => {
    for (const [event, cb] of Object.entries(heard)) model.off(event, cb);
    head.dispose();
    room.disconnect();
    if (controls) controls.dispose();
    for (const u of undo) u();
  };
}

// anywidget's entry: the default export's render (a named `render` export is one it warns about).
export default { render: renderStage };
