// msviz/js/simulate.js: be the computer: the student's operations sent to Python, its verdicts shown.
//
// The reveal is carried out by hand (msviz.simulate): a click on a cell goes to Python as any
// board's click does (board.js), and the buttons and keys drawn here send what they were sent
// with: {event: "operation", name, value}. Python judges every operation with msviz.Simulation
// and sends back, in the `by_hand` trait, all this part shows: the rule, the queue (front first)
// or the stack (from the click up) as a strip, the buttons and keys, the verdict and the score,
// every word filled in Python. The board itself, with the queue's numbers or the stack's path,
// is the view's own. Nothing is judged here.
import { make } from "./parts.js";

/** The elements of the simulation's part: its rule (above the board) and its panel (under it). */
export function simulationElements() {
  const els = {
    rule: make("div", "msviz-sim-rule"),
    stripLabel: make("span", "msviz-sim-strip-label"),
    strip: make("ol", "msviz-sim-strip"),
    buttons: make("div", "msviz-sim-buttons"),
    verdict: make("div", "msviz-sim-verdict"),
    score: make("div", "msviz-sim-score"),
    keys: make("div", "msviz-sim-keys"),
    keepLabel: make("span", "msviz-sim-keep-label"),
    line: make("code", "msviz-sim-line"),
  };
  // A homework set's simulation: the line to keep, which carries out this attempt again.
  els.keep = make("div", "msviz-sim-keep", els.keepLabel, " ", els.line);
  els.waiting = make("div", "msviz-sim-waiting", els.stripLabel, els.strip);
  // The verdict and the score are read out together when either changes (a live region while a
  // simulation is on: a view of another kind keeps its one live region, its own).
  els.said = make("div", "msviz-sim-said", els.verdict, els.score);
  els.buttons.setAttribute("role", "group");
  els.panel = make("div", "msviz-sim", els.waiting, els.buttons, els.said, els.keep, els.keys);
  return els;
}

/** The simulation's part of `model`'s view, drawn into `els` (simulationElements). Returns
 *  {on(), draw(), keys(send) (its keys: a map of key to action, or null when off), keysText()}. */
export function makeSimulation(model, els) {
  const state = () => model.get("by_hand") || {};
  const on = () => Object.keys(state()).length > 0;
  let drawnButtons = ""; // the buttons drawn, as sent: drawn again only when they change (focus stays)

  /** Send an operation as Python described it. */
  const send = (what) => model.send({ event: "operation", name: what.name, value: what.value ?? null });

  function drawButtons(buttons) {
    const spec = JSON.stringify(buttons);
    if (spec === drawnButtons) return;
    drawnButtons = spec;
    els.buttons.replaceChildren(...buttons.map((b) => {
      const button = make("button", "msviz-button", b.text);
      button.type = "button";
      button.dataset.control = b.send.name === "say" ? `say-${b.send.value}` : b.send.name;
      button.setAttribute("aria-label", b.label);
      button.title = b.label;
      button.addEventListener("click", () => send(b.send));
      return button;
    }));
  }

  /** A cell of the strip: "(row, col)", the queue's front or the call on top marked. */
  function chip([row, col], j, n, order) {
    const item = make("li", "msviz-sim-cell", `(${row},\u00a0${col})`);
    if ((order === "bfs" && j === 0) || (order !== "bfs" && j === n - 1)) {
      item.classList.add("msviz-on");
      item.style.borderColor = model.get("palette")[order === "bfs" ? "queue" : "stack"]; // as on the board
    }
    return item;
  }

  function draw() {
    els.rule.style.display = els.panel.style.display = on() ? "" : "none";
    els.panel.dataset.on = String(on()); // a simulation's own panel, as its page says
    if (!on()) {
      els.said.removeAttribute("aria-live");
      return;
    }
    els.said.setAttribute("aria-live", "polite");
    els.said.setAttribute("aria-atomic", "true");
    const s = state();
    els.rule.textContent = s.rule;
    els.rule.style.display = s.rule ? "" : "none";
    els.waiting.style.display = s.over ? "none" : "";
    els.stripLabel.textContent = s.strip;
    const cells = s.waiting || [];
    els.strip.dataset.order = s.order;
    els.strip.replaceChildren(...(cells.length ? cells.map((c, j) => chip(c, j, cells.length, s.order)) : [make("li", "msviz-sim-empty", s.empty)]));
    els.buttons.setAttribute("aria-label", s.group);
    drawButtons(s.buttons || []);
    els.verdict.textContent = s.verdict;
    els.verdict.dataset.verdict = s.kind || "";
    els.score.textContent = s.score;
    els.keepLabel.textContent = s.keep || "";
    els.line.textContent = s.line || "";
    els.keep.hidden = !s.line;
    els.keys.textContent = s.keys_text;
    els.keys.style.display = s.over ? "none" : "";
  }

  /** The keys Python gave (each sends its operation), in either case; null while the part is off. */
  function keys() {
    if (!on()) return null;
    const out = {};
    for (const [key, what] of Object.entries(state().keys || {})) {
      const act = () => send(what);
      for (const name of [key, key.toUpperCase(), key[0].toUpperCase() + key.slice(1)]) out[name] = act;
    }
    return out;
  }

  return { on, draw, keys, keysText: () => state().keys_text || "" };
}
