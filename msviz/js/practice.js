// msviz/js/practice.js: "Be the computer" as practice in a page with no kernel.
//
// With a fixed neighbour order every wrong operation is set right, so the states follow one path.
// Python walked it when the notebook ran (msviz/widgets/practice.py) and judged, at each state,
// every operation the view can send: each symbol said, Return, a click on each cell. Here an
// operation is only looked up: its verdict shown, the state moved on (or back, for Undo), the
// score kept as Python keeps it (a step's first try counts), and at the end the model answer plays.
import { HOSTS } from "./page.js";
import { fill } from "./words.js";

const INT32 = new Set(["step_cell", "step_depth"]); // the other binary traits are bytes

/** A view's traits from the table: each binary array as a kernel sends it (a DataView). */
function traits(view) {
  const out = {};
  for (const [name, value] of Object.entries(view)) {
    if (!Array.isArray(value) || name === "click_cell" || name === "neighbors") out[name] = value;
    else {
      const array = INT32.has(name) ? Int32Array.from(value) : Uint8Array.from(value);
      out[name] = new DataView(array.buffer);
    }
  }
  return out;
}

/** The simulation's host: `table` = {at, firsts, states, verdicts, undo, words, nothing_to_undo,
 *  over, model, simulation, phrases}. */
HOSTS.simulate = (model, table) => {
  const last = table.states.length - 1; // the state where the reveal is over
  const firsts = new Map(table.firsts); // step -> whether its first try was right
  let at = Math.min(table.at, last);
  let answered = 0;
  const words = (i) => table.words[i];

  function score() {
    const right = [...firsts.values()].filter(Boolean).length;
    if (at === last) return fill(table.phrases, "score_over", { right, steps: last });
    return fill(table.phrases, "score", { right, tried: firsts.size });
  }

  function set(values) {
    for (const [name, value] of Object.entries(values)) model.set(name, value);
  }

  /** Show state `at`: the simulation as it stands, or at the end the model answer; and the verdict. */
  function show(verdict, kind) {
    answered += 1;
    const state = table.states[at];
    if (at === last) set({ ...traits(table.model) });
    else {
      set({ playing: false, controls: false, keyboard: false, show_caption: false, code: "", code_lines: {} });
      const view = traits(state.view);
      set({ ...view, step: view.event_label.byteLength - 1, title: table.simulation.title });
    }
    model.set("generation", model.get("generation") + 1);
    const right = [...firsts.values()].filter(Boolean).length;
    model.set("by_hand", { ...state.by_hand, verdict, kind, score: score(), right, tried: firsts.size, answered });
  }

  /** Say `verdict` of `kind` without moving (a refused operation). */
  function refuse(i) {
    answered += 1;
    model.set("by_hand", { ...model.get("by_hand"), verdict: words(i), kind: "refused", answered });
  }

  function operate(key) {
    if (at === last) return refuse(table.over);
    const [i, kind] = table.verdicts[at][key] || [table.over, "refused"];
    if (kind === "error") return undefined; // a fault of the engine's in Python: the verdict stays
    if (kind === "refused") return refuse(i);
    const counted = !firsts.has(at);
    if (counted) firsts.set(at, kind === "right");
    at += 1;
    return show(words(i) + (counted ? "" : fill(table.phrases, "not_counted", {})), kind);
  }

  function undo() {
    if (at === 0) return refuse(table.nothing_to_undo);
    const i = table.undo[at];
    at -= 1;
    return show(words(i), "undone");
  }

  return (content) => {
    const cols = model.get("cols");
    if (content.event === "click" || content.event === "flag") operate(`cell:${content.row * cols + content.col}`);
    else if (content.event !== "operation") return;
    else if (content.name === "undo") undo();
    else if (content.name === "say") operate(`say:${content.value}`);
    else if (content.name === "back") operate("back");
    else if (Array.isArray(content.value)) operate(`cell:${content.value[0] * cols + content.value[1]}`);
  };
};
