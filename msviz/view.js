// msviz/view.js: the board drawn in the browser.
//
// An anywidget ES module (plain JavaScript: no build step, nothing fetched).
// The kernel sends one reveal once, as binary arrays (see msviz/view.py for
// each trait); this module draws any step of it by itself, so sliders and
// Play never wait for the kernel.
//
// How a step is drawn. Cell i at step k shows
//   - its final symbol if it was revealed by then (0 <= visit_step[i] <= k),
//     else its symbol before the click (hidden cells stay raised);
//   - a gold tint if it is the cell of step k;
//   - a magenta outline if it waits on the stack or in the queue
//     (enter_step[i] <= k < leave_step[i]).
// Each combination is a small tile ("sprite") drawn once per cell size; the
// board is a pixel buffer into which tiles are copied. Moving k changes only
// the cells whose visit, enter or leave step lies between the old k and the
// new one (found through per-step lists made once), so one step redraws a
// handful of cells and a jump redraws at most the whole board: O(cells).
//
// The same module runs in an exported page (msviz/export.py), where a small
// stand-in for the widget model is given the same traits.

const HIDDEN = 0; // codes as in msviz.render.CODES: E M B 1..8 X
const MINE = 1;
const BLANK = 2;
const BOOM = 11; // X, the mine that was clicked
const SHOWN_MINE = 12; // a hidden mine uncovered when the game is lost
const FLAG = 13; // a flag on a hidden cell
const TILES = 14; // tiles per variant; variants: plain, current, outlined, both
const LEGIBLE_CSS_PX = 12; // below this, a digit is drawn as its colour

// ---- reading traits --------------------------------------------------------

/** Return a binary trait (a DataView, or nothing yet) as a typed array of `Type`. */
function typed(model, name, Type) {
  const view = model.get(name);
  if (!view || !view.byteLength) return new Type(0);
  // Copy: a DataView's offset need not be aligned for Int32Array.
  const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength).slice();
  return new Type(bytes.buffer);
}

/** Index the cells by a per-cell step array: the cells of step k are
 *  cells[start[k + 1] .. start[k + 2]) (steps -1 .. n), a counting sort. */
function byStep(steps, n) {
  const start = new Int32Array(n + 3);
  for (const s of steps) if (s >= -1 && s <= n) start[s + 2]++;
  for (let k = 1; k < start.length; k++) start[k] += start[k - 1];
  const fill = start.slice();
  const cells = new Int32Array(start[start.length - 1]);
  steps.forEach((s, i) => {
    if (s >= -1 && s <= n) cells[fill[s + 1]++] = i;
  });
  return { start, cells };
}

/** Everything about one reveal that the drawing needs, read from the model. */
function readReveal(model) {
  const rows = model.get("rows");
  const cols = model.get("cols");
  const r = {
    rows,
    cols,
    order: model.get("order"),
    click: model.get("click"),
    start: typed(model, "start", Uint8Array),
    final: typed(model, "final", Uint8Array),
    visit: typed(model, "visit_step", Int32Array),
    enter: typed(model, "enter_step", Int32Array),
    leave: typed(model, "leave_step", Int32Array),
    cell: typed(model, "step_cell", Int32Array),
    parent: typed(model, "parent_step", Int32Array),
    frontier: typed(model, "frontier", Int32Array),
  };
  r.n = r.cell.length;
  if (r.start.length !== rows * cols) r.start = new Uint8Array(rows * cols);
  if (r.final.length !== rows * cols) r.final = r.start;
  for (const name of ["visit", "enter", "leave"]) {
    if (r[name].length !== rows * cols) r[name] = new Int32Array(rows * cols).fill(-1);
  }
  r.children = new Int32Array(r.n); // calls made, or cells queued, by each step
  for (const p of r.parent) if (p >= 0) r.children[p]++;
  r.byVisit = byStep(r.visit, r.n);
  r.byEnter = byStep(r.enter, r.n);
  r.byLeave = byStep(r.leave, r.n);
  return r;
}

// ---- words -----------------------------------------------------------------

/** Fill template `name` as msviz.words.fill does: {x} by value, {x_s} by x's plural. */
function fill(words, name, values) {
  return words[name].replace(/\{(\w+)\}/g, (_, key) => {
    if (key in values) return String(values[key]);
    const base = key.slice(0, -2);
    return key.endsWith("_s") && base in values ? (values[base] === 1 ? "" : "s") : `{${key}}`;
  });
}

/** Say in words what happens at step k (msviz.words.caption, in JavaScript). */
export function caption(words, r, k) {
  const click = `(${r.click[0]}, ${r.click[1]})`;
  if (r.n === 0) return fill(words, "nothing", { click });
  if (k < 0) return fill(words, "before", { click });
  const i = r.cell[k];
  const row = Math.floor(i / r.cols);
  const col = i % r.cols;
  const p = r.parent[k];
  const where =
    p < 0
      ? fill(words, "cell", { row, col })
      : fill(words, "reached", {
          row, col, parent_row: Math.floor(r.cell[p] / r.cols), parent_col: r.cell[p] % r.cols,
        });
  const code = r.final[i];
  if (code === BOOM) return fill(words, "mine", { step: k, where });
  let said;
  if (code === BLANK) {
    said = fill(words, "blank", { step: k, where });
    said += fill(words, `${r.order}_children`, { children: r.children[k] });
  } else {
    const mines = code - BLANK;
    said = fill(words, "digit", { step: k, where, mines, value: String(mines) });
  }
  return said + fill(words, `${r.order}_frontier`, { frontier: r.frontier[k] });
}

// ---- tiles -----------------------------------------------------------------

/** Draw every tile variant at `s` device pixels a side; return them as pixel arrays. */
function makeSprites(palette, s, cssCell) {
  const canvas = document.createElement("canvas");
  canvas.width = s;
  canvas.height = s;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  const edge = Math.max(1, Math.floor(s / 8));
  const line = Math.max(1, Math.floor(s / 6));
  const glyphs = cssCell >= LEGIBLE_CSS_PX;

  function hidden() {
    g.fillStyle = palette.face;
    g.fillRect(0, 0, s, s);
    if (s < 4) return;
    g.fillStyle = palette.light; // lit from the top left
    g.fillRect(0, 0, s, edge);
    g.fillRect(0, 0, edge, s);
    g.fillStyle = palette.shadow; // the shadow, cut on the diagonal at two corners
    for (let i = 0; i < edge; i++) {
      g.fillRect(i + 1, s - 1 - i, s - i - 1, 1);
      g.fillRect(s - 1 - i, i + 1, 1, s - i - 1);
    }
  }
  function flat(color = palette.flat) {
    g.fillStyle = color;
    g.fillRect(0, 0, s, s);
    if (s < 4) return;
    g.fillStyle = palette.grid;
    g.fillRect(0, 0, s, 1);
    g.fillRect(0, 0, 1, s);
  }
  function mine() {
    g.fillStyle = palette.mine;
    g.strokeStyle = palette.mine;
    g.beginPath();
    g.arc(s / 2, s / 2, s * (glyphs ? 0.24 : 0.3), 0, 2 * Math.PI);
    g.fill();
    if (!glyphs) return;
    g.lineWidth = Math.max(1, s * 0.06);
    for (let a = 0; a < 180; a += 45) {
      const dx = 0.36 * s * Math.cos((a * Math.PI) / 180);
      const dy = 0.36 * s * Math.sin((a * Math.PI) / 180);
      g.beginPath();
      g.moveTo(s / 2 - dx, s / 2 - dy);
      g.lineTo(s / 2 + dx, s / 2 + dy);
      g.stroke();
    }
    g.fillStyle = palette.light; // the glint
    const c = Math.floor(s * 0.38);
    g.fillRect(c, c, Math.max(1, Math.floor(s / 8)), Math.max(1, Math.floor(s / 8)));
  }
  function digit(d) {
    const color = palette[String(d)];
    if (!glyphs) {
      flat(mix(palette.flat, color, palette.digit_blend));
      return;
    }
    flat();
    g.fillStyle = color;
    g.font = `bold ${Math.round(s * 0.62)}px "DejaVu Sans", "Helvetica Neue", Arial, sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(String(d), s / 2, s * 0.55);
  }
  function flag() {
    hidden();
    if (s < 6) {
      g.fillStyle = palette.flag;
      g.fillRect(Math.floor(s / 4), Math.floor(s / 4), Math.ceil(s / 2), Math.ceil(s / 2));
      return;
    }
    g.fillStyle = palette.flag; // a red pennant on a black pole and foot
    g.beginPath();
    g.moveTo(s * 0.58, s * 0.2);
    g.lineTo(s * 0.58, s * 0.55);
    g.lineTo(s * 0.25, s * 0.38);
    g.closePath();
    g.fill();
    g.fillStyle = palette.mine;
    g.fillRect(s * 0.55, s * 0.2, Math.max(1, s * 0.07), s * 0.55);
    g.fillRect(s * 0.3, s * 0.72, s * 0.5, Math.max(1, s * 0.1));
  }
  const base = [
    hidden, hidden, () => flat(),
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((d) => () => digit(d)),
    () => { flat(palette.boom); mine(); },
    () => { flat(); mine(); },
    flag,
  ];
  const sprites = [];
  for (let variant = 0; variant < 4; variant++) {
    for (const draw of base) {
      g.globalAlpha = 1;
      draw();
      if (variant & 1) { // the current cell: a gold wash over the tile
        g.globalAlpha = palette.current_blend;
        g.fillStyle = palette.current;
        g.fillRect(0, 0, s, s);
        g.globalAlpha = 1;
      }
      if (variant & 2) { // on the stack or in the queue: an outline inside the cell
        g.fillStyle = palette.frontier;
        g.fillRect(0, 0, s, line);
        g.fillRect(0, s - line, s, line);
        g.fillRect(0, 0, line, s);
        g.fillRect(s - line, 0, line, s);
      }
      sprites.push(new Uint32Array(g.getImageData(0, 0, s, s).data.buffer.slice(0)));
    }
  }
  return sprites;
}

/** Return colour `b` laid over `a` with coverage `t`, as a CSS colour. */
function mix(a, b, t) {
  const rgb = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
  const [x, y] = [rgb(a), rgb(b)];
  return `rgb(${x.map((v, i) => Math.floor((1 - t) * v + t * y[i])).join(",")})`;
}

// ---- the view --------------------------------------------------------------

const STYLE = `
.msviz-view { display: block; width: 100%; max-width: 100%; outline: none; font-family: sans-serif; }
.msviz-view:focus-visible { box-shadow: 0 0 0 2px #4a90d9; }
.msviz-view canvas { display: block; image-rendering: pixelated; cursor: pointer; touch-action: manipulation; }
.msviz-title { font-weight: bold; margin: 2px 0 4px; }
.msviz-caption { font-weight: bold; margin: 6px 0 2px; min-height: 2.6em; line-height: 1.3em; }
.msviz-legend { font-size: 90%; margin: 2px 0; }
.msviz-chip { display: inline-block; width: 1em; height: 1em; vertical-align: -0.15em; margin: 0 4px 0 0; box-sizing: border-box; }
`;

function render({ model, el }) {
  if (!document.getElementById("msviz-view-style")) {
    const style = document.createElement("style");
    style.id = "msviz-view-style";
    style.textContent = STYLE;
    document.head.appendChild(style);
  }
  const root = document.createElement("div");
  root.className = "msviz-view";
  root.tabIndex = 0; // keyboard: left/right, Home/End, space
  const title = document.createElement("div");
  title.className = "msviz-title";
  const canvas = document.createElement("canvas");
  const text = document.createElement("div");
  text.className = "msviz-caption";
  const legend = document.createElement("div");
  legend.className = "msviz-legend";
  root.append(title, canvas, text, legend);
  el.appendChild(root);
  const ctx = canvas.getContext("2d");

  let r = null; // the reveal (readReveal)
  let generation = -1; // which reveal r is
  let s = 0; // device pixels a cell
  let sprites = null;
  let image = null; // ImageData of the whole board
  let pixels = null; // its pixels as 32-bit words
  let shown = null; // the sprite drawn in each cell (what the tests read back)
  let drawnStep = null; // the step the canvas shows, null before the first draw
  let flood = null; // a running flood animation: {from, to, t0, perStep}
  let frame = 0; // a pending animation frame
  let playModel = null; // the Play widget that drives this view, if any

  const last = () => (r ? r.n - 1 : -1);
  const target = () => {
    const k = Math.max(-1, Math.min(model.get("step"), last()));
    return flood ? Math.min(flood.at, k) : k;
  };

  /** The sprite of cell i at step k. */
  function spriteOf(i, k) {
    const v = r.visit[i];
    let tile = v >= 0 && v <= k ? r.final[i] : r.start[i];
    if (tile === MINE) tile = model.get("show_mines") && k === last() && !flood ? SHOWN_MINE : HIDDEN;
    if (tile === HIDDEN && flags[i]) tile = FLAG;
    // The current cell is tinted; in a game only while its flood is animating.
    let variant = k >= 0 && r.cell[k] === i && (flood || !model.get("flood")) ? 1 : 0;
    if (model.get("show_frontier")) {
      const e = r.enter[i];
      if (e >= 0 && e <= k && k < r.leave[i]) variant += 2;
    }
    return tile + TILES * variant;
  }

  let flags = new Uint8Array(0);
  function readFlags() {
    flags = typed(model, "flags", Uint8Array);
    if (flags.length !== r.rows * r.cols) flags = new Uint8Array(r.rows * r.cols);
  }

  /** Copy sprite `sp` into cell i of the pixel buffer. */
  function paint(i, sp) {
    const width = r.cols * s;
    const x0 = (i % r.cols) * s;
    const y0 = Math.floor(i / r.cols) * s;
    const tile = sprites[sp];
    for (let y = 0; y < s; y++) pixels.set(tile.subarray(y * s, y * s + s), (y0 + y) * width + x0);
    shown[i] = sp;
  }

  /** Size the canvas to the space the view has; return true if the cell size changed. */
  function layout() {
    const dpr = window.devicePixelRatio || 1;
    const width = root.clientWidth || el.clientWidth || 600;
    const tall = Math.max(200, (window.innerHeight || 800) * 0.75);
    let css = Math.min(model.get("max_cell"), width / r.cols, tall / r.rows);
    let next = Math.max(1, Math.floor(css * dpr));
    if (next === s && image) return false;
    s = next;
    canvas.width = r.cols * s;
    canvas.height = r.rows * s;
    canvas.style.width = `${(r.cols * s) / dpr}px`;
    canvas.style.height = `${(r.rows * s) / dpr}px`;
    sprites = makeSprites(model.get("palette"), s, s / dpr);
    image = ctx.createImageData(canvas.width, canvas.height);
    pixels = new Uint32Array(image.data.buffer);
    return true;
  }

  function drawAll(k) {
    for (let i = 0; i < r.rows * r.cols; i++) paint(i, spriteOf(i, k));
    ctx.putImageData(image, 0, 0);
  }

  /** Redraw only the cells that differ between steps a and b. */
  function drawChange(a, b) {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    let box = null; // the dirty rectangle, in cells
    const touch = (i) => {
      const sp = spriteOf(i, b);
      if (shown[i] === sp) return;
      paint(i, sp);
      const y = Math.floor(i / r.cols);
      const x = i % r.cols;
      if (!box) box = [x, y, x, y];
      else box = [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)];
    };
    for (const index of [r.byVisit, r.byEnter, r.byLeave]) {
      for (let j = index.start[lo + 2]; j < index.start[hi + 2]; j++) touch(index.cells[j]);
    }
    if (a >= 0) touch(r.cell[a]);
    if (b >= 0) touch(r.cell[b]);
    if (box) {
      ctx.putImageData(image, 0, 0, box[0] * s, box[1] * s, (box[2] - box[0] + 1) * s, (box[3] - box[1] + 1) * s);
    }
  }

  function draw() {
    frame = 0;
    let full = false;
    if (generation !== model.get("generation") || !r) {
      generation = model.get("generation");
      r = readReveal(model);
      shown = new Uint16Array(r.rows * r.cols);
      readFlags();
      flood = null;
      if (model.get("flood") && r.n > 1) {
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
        full = true; // the gold tint and the lost game's mines change with the end of the flood
      }
    }
    const k = target();
    const moved = drawnStep === null ? Infinity : Math.abs(k - drawnStep);
    if (full || moved * 8 > r.rows * r.cols) drawAll(k);
    else if (k !== drawnStep) drawChange(drawnStep, k);
    drawnStep = k;
    root.dataset.step = String(k);
    title.textContent = model.get("title");
    title.style.display = model.get("title") ? "" : "none";
    if (model.get("show_caption")) {
      const clamped = Math.min(model.get("step"), last());
      text.textContent = caption(model.get("words"), r, k) + (model.get("step") > clamped ? model.get("words").finished : "");
    }
    text.style.display = model.get("show_caption") ? "" : "none";
    if (flood) request();
  }

  function request() {
    if (!frame) frame = requestAnimationFrame(draw);
  }

  /** Finish a running flood at once (a click or a new game comes in). */
  function finishFlood() {
    if (!flood) return;
    flood = null;
    if (frame) cancelAnimationFrame(frame);
    draw();
  }

  function drawLegend() {
    const palette = model.get("palette");
    const words = model.get("words");
    legend.replaceChildren();
    if (!model.get("show_legend")) return;
    const gold = document.createElement("span");
    gold.className = "msviz-chip";
    gold.style.background = mix(palette.flat, palette.current, palette.current_blend);
    gold.style.border = `1px solid ${palette.grid}`;
    const ring = document.createElement("span");
    ring.className = "msviz-chip";
    ring.style.border = `3px solid ${palette.frontier}`;
    ring.style.background = palette.face;
    const order = model.get("order");
    legend.append(gold, words.legend_current + "\u2003", ring, words[`legend_${order}`] || words.legend_frontier);
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
    finishFlood(); // the screen agrees with the board before the click is applied
    model.send({ event: flag ? "flag" : "click", row: cell[0], col: cell[1] });
  }
  canvas.addEventListener("click", (e) => onClick(e, e.shiftKey || e.ctrlKey || e.metaKey || e.altKey));
  canvas.addEventListener("contextmenu", (e) => onClick(e, true));

  // Keyboard: one step, first and last step, play and pause.
  function setStep(k) {
    model.set("step", Math.max(0, Math.min(k, Math.max(last(), model.get("last_step")))));
    model.save_changes();
  }
  root.addEventListener("keydown", (e) => {
    if (!model.get("keyboard") || !r || r.n === 0) return;
    const k = Math.min(model.get("step"), Math.max(last(), model.get("last_step")));
    const keys = {
      ArrowRight: () => setStep(k + 1), ArrowLeft: () => setStep(k - 1),
      Home: () => setStep(0), End: () => setStep(Infinity),
      " ": () => playModel && (playModel.set("playing", !playModel.get("playing")), playModel.save_changes()),
    };
    if (keys[e.key]) {
      e.preventDefault();
      keys[e.key]();
    }
  });

  // Play: its speed comes from this view's fps; with several steps a frame it still ends on the last step.
  // While it plays, the browser alone moves the step: the saves to the kernel of the models
  // linked to it (Play, the slider, the views) are held back and sent twice a second, and
  // once when it stops, so that the kernel stays nearly idle however fast it plays.
  const getModel = (ref) => model.widget_manager.get_model(String(ref).replace(/^IPY_MODEL_/, ""));
  async function attachPlay() {
    const ref = model.get("play");
    playModel = null;
    if (!ref || !model.widget_manager) return;
    playModel = await getModel(ref);
    const linked = await Promise.all((model.get("linked") || []).map(getModel));
    const speed = () => {
      playModel.set("interval", Math.max(1, Math.round(1000 / Math.max(1, model.get("fps")))));
      playModel.save_changes();
    };
    speed();
    model.on("change:fps", speed);
    let held = null; // the models whose saves wait, and the timer that sends them
    const flush = () => {
      for (const m of held.dirty) m.msvizSave.call(m);
      held.dirty.clear();
    };
    function hold(on) {
      if (on && !held) {
        held = { dirty: new Set(), timer: setInterval(() => flush(), 500) };
        for (const m of linked) {
          m.msvizSave = m.save_changes;
          m.save_changes = () => held.dirty.add(m);
        }
      } else if (!on && held) {
        clearInterval(held.timer);
        for (const m of linked) m.save_changes = m.msvizSave;
        flush();
        held = null;
      }
    }
    playModel.on("change:playing", () => {
      const playing = playModel.get("playing");
      hold(playing);
      const value = playModel.get("value");
      const max = playModel.get("max");
      if (!playing && value < max && value + playModel.get("step") > max) {
        playModel.set("value", max);
        playModel.save_changes();
      }
    });
  }

  // Tests and the benchmark read what is drawn through this handle.
  root.msviz = {
    step: () => drawnStep,
    sprites: () => Array.from(shown, (sp) => sp % TILES),
    variants: () => Array.from(shown, (sp) => Math.floor(sp / TILES)),
    caption: () => text.textContent,
    cellSize: () => s,
    rows: () => r.rows,
    cols: () => r.cols,
    animating: () => flood !== null,
  };

  model.on("change:step", request);
  model.on("change:generation", request);
  model.on("change:show_mines", () => { drawnStep = null; request(); });
  model.on("change:show_frontier", () => { drawnStep = null; request(); });
  model.on("change:flags", () => { if (r) { readFlags(); drawnStep = null; request(); } });
  model.on("change:title", request);
  model.on("change:max_cell", request);
  model.on("change:palette", () => { s = 0; drawLegend(); request(); });
  model.on("change:show_legend", drawLegend);
  model.on("change:order", drawLegend);
  const resize = new ResizeObserver(() => request());
  resize.observe(root);
  attachPlay();
  drawLegend();
  draw();
  return () => {
    resize.disconnect();
    if (frame) cancelAnimationFrame(frame);
  };
}

export default { render };
