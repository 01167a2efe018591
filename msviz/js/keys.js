// msviz/js/keys.js: a board view's keys: a player's steps and Play; the quiz's and the game's cursor.
import { TILES, position } from "./reveal.js";
import { fill } from "./words.js";

/** The keys of the board view `root` of `model`. `view` is what they act on: {reveal() (the reveal
 *  shown, or null), last() (its last position), act(cell, flag) (a click on cell [row, col]),
 *  quizOn(), say(text) (the live region), shown() (the tiles drawn), remark() (draw the overlay
 *  again), extraKeys() (a simulation's own keys with the cursor's, or null)}. Keys act only while the view itself has the focus; Escape gives it back to the page.
 *  Returns {cursor(), pointing(), sayCursor(), dispose}. */
export function makeKeys(model, root, view) {
  const r = view.reveal;
  const last = view.last;
  const act = view.act;
  let cursor = -1; // the cell under it, -1 before the keys first move it
  const pointing = () => view.quizOn() || (!model.get("keyboard") && !model.get("quiz"));
  /** Say what the cell under the cursor shows (what is drawn, so hidden mines stay hidden). */
  function sayCursor() {
    const words = model.get("words");
    const at = { row: Math.floor(cursor / r().cols), col: cursor % r().cols };
    view.say(fill(words, "cursor", { ...at, what: words.tile_names[view.shown()[cursor] % TILES] }));
  }
  /** Move the cursor by (dr, dc), staying on the board; it starts on the cell of this step or the middle. */
  function moveCursor(dr, dc) {
    if (cursor < 0) {
      const k = Math.max(-1, Math.min(model.get("step"), last()));
      const [, cur] = position(r(), model.get("mode") === "events" ? "events" : "visits", k); // a step's own
      cursor = cur >= 0 ? r().cell[cur] : Math.floor(r().rows / 2) * r().cols + Math.floor(r().cols / 2);
    } else {
      const row = Math.max(0, Math.min(r().rows - 1, Math.floor(cursor / r().cols) + dr));
      const col = Math.max(0, Math.min(r().cols - 1, (cursor % r().cols) + dc));
      cursor = row * r().cols + col;
    }
    view.remark(); // the overlay is drawn again, cursor and all
    sayCursor();
  }
  // Keyboard: one step, first and last step, play and pause (where the stage has a control bar).
  const togglePlay = () => {
    model.set("playing", !model.get("playing"));
    model.save_changes();
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
      ...(model.get("controls") ? { " ": togglePlay } : {}),
    };
  }
  /** The keys of the quiz, the game and a simulation: move the cursor, act on its cell (f plants a flag
   *  in the game; a simulation's own keys say what a cell shows, return and undo). */
  function cellKeys() {
    const here = () => (cursor >= 0 ? [Math.floor(cursor / r().cols), cursor % r().cols] : null);
    const at = (flag) => () => { if (here()) act(here(), flag); else moveCursor(0, 0); };
    return {
      ArrowRight: () => moveCursor(0, 1), ArrowLeft: () => moveCursor(0, -1),
      ArrowDown: () => moveCursor(1, 0), ArrowUp: () => moveCursor(-1, 0),
      Enter: at(false), " ": at(false),
      ...(view.extraKeys?.() || (view.quizOn() ? {} : { f: at(true), F: at(true) })),
    };
  }
  function onKey(e) {
    if (e.target !== root || !r()) return; // keys act where focus is: the code's own scrolling, say
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
  }
  root.addEventListener("keydown", onKey);
  return {
    cursor: () => cursor,
    pointing,
    sayCursor,
    dispose: () => root.removeEventListener("keydown", onKey),
  };
}
