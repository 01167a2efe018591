// msviz/js/board.js: one board view: the board, its caption, legend and code, drawn from one
// model's traits (a stage may hold two: see stage.js). It builds the elements and wires the parts.
import { makeCodePanel } from "./code.js";
import { makeOverlay } from "./overlay.js";
import { make, makeAnnouncer, makePointer } from "./parts.js";
import { makeQuiz } from "./quiz.js";
import { TILES, position, readReveal, waiting } from "./reveal.js";
import { triangle } from "./sprites.js";
import { makeTiles } from "./tiles.js";
import { caption, eventCaption, fill } from "./words.js";

/** Draw one board of `model` into `el`; return a function that undoes everything it did. */
export function renderBoard({ model, el }) {
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
  return () => {
    resize.disconnect();
    sight.disconnect();
    voice.dispose();
    pointer.dispose();
    if (frame) cancelAnimationFrame(frame);
  };
}

