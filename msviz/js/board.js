// msviz/js/board.js: one board view: the board, its caption, legend and code, drawn from one
// model's traits (a stage may hold two: see stage.js). It builds the elements and wires the parts.
import { makeCodePanel } from "./code.js";
import { makeKeys } from "./keys.js";
import { makeLayout } from "./layout.js";
import { makeLegend } from "./legend.js";
import { makeOverlay } from "./overlay.js";
import { make, makeAnnouncer, makePointer, soon } from "./parts.js";
import { makeQuiz } from "./quiz.js";
import { TILES, position, readReveal, waiting } from "./reveal.js";
import { makeSimulation, simulationElements } from "./simulate.js";
import { makeTiles } from "./tiles.js";
import { caption, eventCaption, fill } from "./words.js";

/** The elements of one board view, made and named (for a screen reader too), not yet in the page. */
export function boardElements() {
  const els = {
    title: make("div", "msviz-title"),
    canvas: make("canvas", "msviz-cells"),
    overlay: make("canvas", "msviz-overlay"),
    text: make("div", "msviz-caption"),
    legend: make("div", "msviz-legend"),
    // The quiz: its rule above the board; under it, the verdict of the last guess and the score.
    quizRule: make("div", "msviz-quiz-rule"),
    quizVerdict: make("span", "msviz-quiz-verdict"),
    quizScore: make("span", "msviz-quiz-score"),
    // Beside the board: the code being animated, its line highlighted, and the stack's frames or the queue.
    code: make("pre", "msviz-code"),
    frames: make("div", "msviz-frames"),
    // What a screen reader says: the caption, or the cell under the keyboard's cursor (politely).
    live: make("div", "msviz-live"),
    // Be the computer (simulate.js): its rule above the board; under it the queue or stack, the
    // buttons, the verdict and the score.
    sim: simulationElements(),
  };
  els.quizSaid = make("div", "msviz-quiz-said", els.quizVerdict, els.quizScore);
  const board = make("div", "msviz-board", els.canvas, els.overlay);
  els.left = make("div", "msviz-left", els.quizRule, els.sim.rule, board, els.quizSaid, els.sim.panel, els.text, els.legend);
  els.side = make("div", "msviz-side", els.code, els.frames);
  els.root = make("div", "msviz-view", els.title, make("div", "msviz-main", els.left, els.side), els.live);
  els.live.setAttribute("aria-live", "polite");
  els.live.setAttribute("aria-atomic", "true");
  els.root.tabIndex = 0; // keyboard: see keys.js
  els.root.setAttribute("role", "region");
  els.root.dataset.lmSuppressShortcuts = ""; // JupyterLab's shortcuts stay quiet while the view has the keys
  els.canvas.setAttribute("role", "img");
  els.overlay.setAttribute("aria-hidden", "true");
  for (const part of [els.code, els.frames]) { // they scroll: the keyboard can scroll them too
    part.tabIndex = 0;
    part.setAttribute("role", "region");
  }
  return els;
}

/** Draw one board of `model` into `el`; return a function that undoes everything it did.
 *  The look is view.css: anywidget loads it in a notebook, an exported page embeds it. */
export function renderBoard({ model, el }) {
  const els = boardElements();
  const { root, canvas, code, frames, side } = els;
  el.appendChild(root);
  const parts = { voice: makeAnnouncer(els.live), codePanel: makeCodePanel(model, code, frames, side) };
  parts.sim = makeSimulation(model, els.sim); // drawn before the layout measures it
  parts.sim.draw();
  parts.placing = makeLayout(model, el, els);
  parts.legend = makeLegend(model, els.legend);
  parts.tiles = makeTiles(canvas, model);
  parts.marks = makeOverlay(els.overlay, model);
  const drawing = makeDrawing(model, els, parts);
  const { request, redraw, relayout, reveal: r, last, mode, target } = drawing;
  // The quiz (makeQuiz): a click is a guess, judged here.
  parts.quiz = makeQuiz(model, { reveal: r, target, last, mode, request },
    { rule: els.quizRule, verdict: els.quizVerdict, score: els.quizScore, said: els.quizSaid });
  /** A click on (or Enter at) `cell` = [row, col]: the quiz's guess, or the game's reveal or flag. */
  function act(cell, flag) {
    drawing.finishFlood(); // the screen agrees with the board before the click is applied
    if (model.get("editing")) { // the board is being edited: Python changes it, the reveal follows
      model.send({ event: "edit", row: cell[0], col: cell[1], move: Boolean(flag) });
      return;
    }
    if (parts.quiz.on()) {
      if (!flag) parts.quiz.guess(cell[0] * r().cols + cell[1]);
      return;
    }
    model.send({ event: flag ? "flag" : "click", row: cell[0], col: cell[1] });
  }
  // The keys (makeKeys): a player's steps and Play, or the quiz's and the game's cursor.
  parts.keyboard = makeKeys(model, root, {
    reveal: r, last, act, quizOn: () => parts.quiz.on(), say: (text) => parts.voice.say(text),
    shown: () => parts.tiles.shown(), remark: drawing.remark, extraKeys: () => parts.sim.keys(),
  });
  // Clicks: the cell goes to Python as (row, col); right-click or a modifier plants a flag.
  const pointer = makePointer(canvas, root, (event, flag) => {
    const cell = r() && cellAt(canvas, r(), event);
    if (!cell) return;
    event.preventDefault();
    act(cell, flag);
  });
  // The cursor shows only while the view has the keys.
  for (const name of ["focus", "blur"]) root.addEventListener(name, drawing.remark);
  // Tests and the benchmark read what is drawn through this handle.
  root.msviz = boardHandle(model, els, {
    drawn: drawing.drawn, reveal: r, tiles: parts.tiles, line: () => parts.codePanel.line(), animating: drawing.flooding,
    cursor: () => parts.keyboard.cursor(), relayout: drawing.relayout,
  });
  const legendAgain = () => parts.legend.draw();
  const buildCode = () => { parts.codePanel.build(); parts.placing.reset(); }; // and choose the arrangement again
  listen(model, {
    step: request, generation: relayout, title: relayout, quiz: relayout, quiz_right: relayout,
    quiz_returned: relayout, max_cell: relayout, mode: redraw, show_mines: redraw, editing: redraw,
    show_frontier: () => { legendAgain(); redraw(); },
    flags: () => { if (r()) { parts.tiles.readFlags(); redraw(); } },
    quiz_tries: () => { if (!model.get("quiz_tries")) parts.quiz.forget(); relayout(); }, // started again
    palette: () => { parts.tiles.repaint(); legendAgain(); redraw(); }, // the text's colours are the host's
    show_legend: () => { legendAgain(); relayout(); }, order: legendAgain,
    code: () => { buildCode(); redraw(); },
    by_hand: () => { parts.sim.draw(); drawing.remark(); relayout(); },
  });
  buildCode();
  const resize = new ResizeObserver(relayout);
  resize.observe(root);
  // A notebook skips the layout of cells out of sight: once in sight again, the code's
  // window is scrolled to its running line again (and the room is measured again).
  const sight = new IntersectionObserver((seen) => { if (seen.some((x) => x.isIntersecting)) { parts.placing.reset(); relayout(); } });
  sight.observe(root);
  legendAgain();
  drawing.first();
  return () => {
    resize.disconnect();
    sight.disconnect();
    parts.voice.dispose();
    pointer.dispose();
    parts.keyboard.dispose();
    drawing.dispose();
  };
}

/** What one board view shows, and its drawing: the reveal read from the model, the position shown,
 *  a game's flood animation; `parts` are the view's parts (tiles, marks, placing, quiz, keyboard,
 *  voice, codePanel: the last three may come after). Returns {draw, request, redraw, finishFlood,
 *  remark, reveal(), drawn(), flooding(), last(), mode(), target(), dispose}. */
function makeDrawing(model, els, parts) {
  const { root, canvas, overlay } = els;
  const reducedMotion = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  let r = null; // the reveal (readReveal)
  let generation = -1; // which reveal r is
  let dpr = 1; // device pixels a CSS pixel
  let drawn = null; // [position, event, current step] the canvas shows, null before the first draw
  let flood = null; // a running flood animation: {at, to, t0, perStep}
  let frame = 0; // a pending animation frame
  let atEnd = false; // whether the last position is shown (a lost game then shows its mines)
  let marked = null; // the verdict marked on the overlay
  let lastSaid = ""; // what the live region was last told
  let placed = false; // whether the layout is up to date: only a change other than the step moves it

  const mode = () => (model.get("mode") === "events" ? "events" : "visits");
  const last = () => (r ? (mode() === "events" ? r.m : r.n) - 1 : -1);
  const target = () => {
    const p = Math.max(-1, Math.min(model.get("step"), last()));
    return flood ? Math.min(flood.at, p) : p;
  };
  const waitingColor = () => model.get("palette")[r && r.order === "bfs" ? "queue" : "stack"];

  /** Size the canvases to the space the view has; return true if the cell size changed. */
  function layout() {
    dpr = window.devicePixelRatio || 1;
    return parts.tiles.size(parts.placing.arrange(r), dpr, [canvas, overlay], waitingColor());
  }

  /** Read the reveal again if it is new; a game's click then starts its flood. */
  function readAgain() {
    if (generation === model.get("generation") && r) return false;
    generation = model.get("generation");
    r = readReveal(model);
    parts.tiles.reset(r);
    flood = null;
    if (model.get("flood") && r.n > 1 && !reducedMotion()) {
      // Animate a game's click: every step shown once, at most about 1.5 s in all.
      const k = Math.max(-1, Math.min(model.get("step"), last()));
      flood = { at: -1, to: k, t0: performance.now(), perStep: Math.min(40, 1500 / (k + 1)) };
    }
    return true;
  }

  /** Read the reveal if it is new and arrange the view again if need be; return whether every cell
   *  is to be drawn. */
  function place() {
    let full = readAgain();
    // Arranged again only when something but the step changed (a step must cost no layout).
    if ((!placed || full) && layout()) full = true;
    placed = true;
    return full;
  }

  function draw() {
    frame = 0;
    let full = place() || drawn === null;
    if (flood) {
      flood.at = Math.min(flood.to, Math.floor((performance.now() - flood.t0) / flood.perStep));
      if (flood.at >= flood.to) {
        flood = null;
        full = true; // the current cell and a lost game's mines change with the end of the flood
      }
    }
    const { tiles, quiz, keyboard } = parts;
    const p = target();
    const [e, cur] = quiz.position(p) || position(r, mode(), p);
    if (atEnd !== (p === last() && !flood)) {
      atEnd = !atEnd;
      full = true;
    }
    // A lost game's mines show at its end, and every mine while the board is edited (a click puts
    // one or takes it away); the current cell, except in a game once its flood is over.
    const mines = (model.get("show_mines") && atEnd) || Boolean(model.get("editing"));
    tiles.setLook(mines, Boolean(flood) || !model.get("flood"));
    const moved = drawn === null ? Infinity : Math.abs(e - drawn[1]);
    if (full || moved * 8 > r.rows * r.cols) tiles.drawAll(e, cur);
    else if (e !== drawn[1] || cur !== drawn[2]) tiles.drawChange(drawn[1], drawn[2], e, cur);
    const mark = quiz.mark(p); // the quiz's last guess, marked on its cell
    if (drawn === null || full || e !== drawn[1] || mark !== marked) {
      // The cursor shows only while the view has the keys.
      parts.marks.draw(r, tiles.side(), dpr, e, mark, document.activeElement === root ? keyboard.cursor() : -1);
      marked = mark;
    }
    drawn = [p, e, cur];
    root.dataset.step = String(p);
    showCaption(model, els, r, mode() === "events" ? e : cur, mode(), last());
    quiz.draw(p);
    nameView(model, els, r, keyboard.pointing(), quiz.on(), parts.sim.keysText());
    // Said once when it changes: the verdict and caption, or else (the game) the cell under the cursor.
    const said = model.get("show_caption") ? [...quiz.said(), els.text.textContent].filter(Boolean).join(" ") : "";
    if (said !== lastSaid) {
      lastSaid = said;
      if (said) parts.voice.say(said);
    }
    if (!said && keyboard.pointing() && keyboard.cursor() >= 0) keyboard.sayCursor();
    parts.codePanel.draw(r, mode(), e, cur);
    if (flood) request();
  }

  function request() {
    if (!frame) frame = requestAnimationFrame(draw);
  }
  return {
    draw, request, last, mode, target,
    /** The first drawing, at once; on a board of BIG_BOARD cells or more, arranged now (the view
     *  takes its room at once) and its cells drawn in a task of their own, before the frame that
     *  shows them: a big board's build and its drawing are two tasks, neither long. */
    first() {
      if (model.get("rows") * model.get("cols") < BIG_BOARD) {
        draw();
        return;
      }
      place();
      soon(() => { if (drawn === null) draw(); });
    },
    redraw() { drawn = null; placed = false; request(); },
    /** The space or what surrounds the board changed: arrange it again in the next frame. */
    relayout() { placed = false; request(); },
    remark() { marked = undefined; request(); }, // the overlay is drawn again, cursor and all
    /** Finish a running flood at once (a click or a new game comes in). */
    finishFlood() {
      if (!flood) return;
      flood = null;
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      draw();
    },
    reveal: () => r,
    drawn: () => drawn,
    flooding: () => flood !== null,
    dispose: () => { if (frame) cancelAnimationFrame(frame); },
  };
}

/** The cells from which a board's first drawing is a task of its own (a cold drawing of them all
 *  takes some milliseconds: a quarter of a million, about ten here). */
const BIG_BOARD = 1 << 18;

/** The title, and the caption of position `at` (a step, or in mode "events" an event) of reveal r. */
function showCaption(model, els, r, at, mode, last) {
  const { title, text } = els;
  title.textContent = model.get("title");
  title.style.display = model.get("title") ? "" : "none";
  if (model.get("show_caption")) {
    const words = model.get("words");
    const said = mode === "events" ? eventCaption(words, r, at) : caption(words, r, at);
    text.textContent = said + (model.get("step") > last && last >= 0 ? words.finished : "");
  }
  text.style.display = model.get("show_caption") ? "" : "none";
}

/** The names of the view, its board and its code, in words from Python: the view is a region named
 *  for the keys it takes (a cursor's where `pointing`, a quiz's guess where `guessing`, a
 *  simulation's `simKeys` while it runs), the board a picture named by its size; the caption goes to
 *  a polite live region (makeAnnouncer). */
function nameView(model, els, r, pointing, guessing, simKeys) {
  const words = model.get("words");
  const size = { rows: r.rows, cols: r.cols };
  const cells = () => fill(words, "keys_cells", { act: words[guessing ? "act_guess" : "act_reveal"] })
    + (guessing ? "" : words.keys_flag);
  const keys = pointing && simKeys ? simKeys : pointing ? cells() : model.get("keyboard") ? words.keys_steps : "";
  els.root.setAttribute("aria-label", [model.get("title"), fill(words, "view_name", size), keys].filter(Boolean).join(words.sentences || ". "));
  if (words.lang) els.root.setAttribute("lang", words.lang); // the language its words are in
  // A simulation has no caption: what each operation did is said in its own part, below the board.
  const simulation = Object.keys(model.get("by_hand") || {}).length > 0;
  els.canvas.setAttribute("aria-label", fill(words, simulation ? "board_name_simulation" : "board_name", size));
  els.code.setAttribute("aria-label", words.code_name);
  const framesName = words[`frames_name_${r.order}`]; // none for a game's board: it has no order
  if (framesName) els.frames.setAttribute("aria-label", framesName);
  else els.frames.removeAttribute("aria-label");
}

/** The cell [row, col] of reveal r under a pointer `event` on `canvas`, or null off the board. */
function cellAt(canvas, r, event) {
  const box = canvas.getBoundingClientRect();
  const col = Math.floor(((event.clientX - box.left) / box.width) * r.cols);
  const row = Math.floor(((event.clientY - box.top) / box.height) * r.rows);
  return row >= 0 && row < r.rows && col >= 0 && col < r.cols ? [row, col] : null;
}

/** Listen to changes of `model`'s traits: `handlers` maps a trait's name to what runs when it changes.
 *  (anywidget takes the listeners off the model when the view goes.) */
function listen(model, handlers) {
  for (const [name, handler] of Object.entries(handlers)) model.on(`change:${name}`, handler);
}

/** What tests and the benchmark read of a board view: what it drew (and its stage: relayout). `view`
 *  gives {drawn() ([position, event, current step] or null), reveal(), tiles, line(), animating(),
 *  cursor(), relayout()}. */
function boardHandle(model, els, view) {
  const { tiles } = view;
  const r = () => view.reveal();
  const at = (k) => [Math.floor(r().cell[k] / r().cols), r().cell[k] % r().cols];
  return {
    step: () => (view.drawn() ? view.drawn()[0] : null),
    event: () => (view.drawn() ? view.drawn()[1] : null),
    line: view.line,
    frames: () => els.frames.textContent,
    waiting: () => (view.drawn() && r() ? waiting(r(), view.drawn()[1]).map(at) : []),
    sprites: () => Array.from(tiles.shown(), (sp) => sp % TILES),
    variants: () => Array.from(tiles.shown(), (sp) => Math.floor(sp / TILES)),
    caption: () => els.text.textContent,
    cellSize: () => tiles.side(),
    /** Draw every cell again at once (with `everyCell`, each looked at, however few events are in);
     *  return the milliseconds it took (the benchmark's full redraw). */
    redrawAll: (everyCell = false) => {
      const t0 = performance.now();
      tiles.drawAll(view.drawn()[1], view.drawn()[2], everyCell);
      return performance.now() - t0;
    },
    rows: () => r().rows,
    cols: () => r().cols,
    animating: view.animating,
    cursor: view.cursor, // the keyboard's cell (row * cols + col), -1 before the keys first move it
    relayout: view.relayout, // arrange the view again (its stage's: what is above it changed height)
    /** What the simulation's part shows (simulate.js). */
    byHand: () => ({
      rule: els.sim.rule.textContent, strip: Array.from(els.sim.strip.children, (c) => c.textContent),
      verdict: els.sim.verdict.textContent, kind: els.sim.verdict.dataset.verdict, score: els.sim.score.textContent,
      answered: (model.get("by_hand") || {}).answered ?? -1,
      line: els.sim.line.textContent, keep: !els.sim.keep.hidden,
      marks: (model.get("by_hand") || {}).marks || [], // the cells marked on the overlay ("end", judged)
      right: (model.get("by_hand") || {}).right, tried: (model.get("by_hand") || {}).tried,
    }),
    quiz: () => ({
      rule: els.quizRule.textContent, verdict: els.quizVerdict.textContent, score: els.quizScore.textContent,
      right: model.get("quiz_right"), tries: model.get("quiz_tries"), returned: model.get("quiz_returned"),
      waiting: view.drawn() ? waiting(r(), view.drawn()[1]).map((k) => r().cell[k]) : [],
    }),
  };
}
