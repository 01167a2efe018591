// msviz/js/tiles.js: the board's cells on their canvas, redrawn only where they change.
import { FLAG, HIDDEN, MINE, SHOWN_MINE, TILES, codeAt, enteredAt, leftAt, typed } from "./reveal.js";
import { makeSprites } from "./sprites.js";

/** The board's cells on `canvas`: each cell a sprite (its symbol; whether it is current, or waiting
 *  on the stack or in the queue) copied into one pixel buffer, put on the canvas at once. A move
 *  redraws only the cells of the events between (drawChange); a jump, every cell (drawAll).
 *  Returns {reset, readFlags, repaint, size, setLook, drawAll, drawChange, shown, side}. */
export function makeTiles(canvas, model) {
  const ctx = canvas.getContext("2d");
  let r = null; // the reveal
  let s = 0; // device pixels a cell
  let sprites = null;
  let image = null; // ImageData of the whole board
  let pixels = null; // its pixels as 32-bit words
  let shown = new Uint16Array(0); // the sprite drawn in each cell (what the tests read back)
  let flags = new Uint8Array(0);

  // The traits every cell's sprite depends on, read once a frame (not once a cell).
  const look = { mines: false, current: true, frontier: true };
  /** Read the look once a frame: a lost game's mines shown, the current cell marked, the waiting outlined. */
  function setLook(mines, current) {
    look.mines = mines;
    look.current = current;
    look.frontier = model.get("show_frontier");
  }

  /** The sprite of cell i after event e, with the cell of step `cur` current. */
  function spriteOf(i, e, cur) {
    return spriteAt(i, e, look.current && cur >= 0 ? r.cell[cur] : -1);
  }

  /** The sprite of cell i after event e, with cell `current` marked current (-1: none). */
  function spriteAt(i, e, current) {
    let tile = codeAt(r, i, e);
    if (tile === MINE) tile = look.mines ? SHOWN_MINE : HIDDEN;
    if (tile === HIDDEN && flags[i]) tile = FLAG;
    let variant = current === i ? 1 : 0;
    if (look.frontier) {
      const enter = enteredAt(r, i);
      if (enter >= 0 && enter <= e && e < leftAt(r, i)) variant += 2;
    }
    return tile + TILES * variant;
  }

  /** The flags planted (the game), one byte a cell. */
  function readFlags() {
    flags = typed(model, "flags", Uint8Array);
    if (flags.length !== r.rows * r.cols) flags = new Uint8Array(r.rows * r.cols);
  }

  /** Copy sprite `sp` into cell i of the pixel buffer. */
  function paint(i, sp) {
    shown[i] = sp;
    copyTile(pixels, sprites[sp], i, s, r.cols);
  }

  /** Size `canvases` for cells of `css` CSS pixels at `dpr` device pixels each, with sprites in
   *  `waitingColor`; return true if the cell size changed (then everything is to be drawn). */
  function size(css, dpr, canvases, waitingColor) {
    const next = Math.max(1, Math.floor(css * dpr));
    if (next === s && image) return false;
    s = next;
    for (const c of canvases) {
      c.width = r.cols * s;
      c.height = r.rows * s;
      c.style.width = `${(r.cols * s) / dpr}px`;
      c.style.height = `${(r.rows * s) / dpr}px`;
    }
    sprites = makeSprites(model.get("palette"), s, s / dpr, waitingColor);
    image = ctx.createImageData(canvas.width, canvas.height);
    pixels = new Uint32Array(image.data.buffer);
    return true;
  }

  /** Draw every cell after event e, with the cell of step `cur` current: with few events in, from
   *  the start (drawFromStart), else (or with `everyCell`) each cell looked at. */
  function drawAll(e, cur, everyCell = false) {
    const cells = r.rows * r.cols;
    const current = look.current && cur >= 0 ? r.cell[cur] : -1; // read once, not once a cell
    if (e * 4 < cells && !everyCell) {
      drawFromStart(e, current);
      return;
    }
    if (s === 1) { // one pixel a cell: each sprite's one pixel, straight into the buffer
      const one = Uint32Array.from(sprites, (tile) => tile[0]);
      for (let i = 0; i < cells; i++) {
        const sp = spriteAt(i, e, current);
        shown[i] = sp;
        pixels[i] = one[sp];
      }
    } else for (let i = 0; i < cells; i++) paint(i, spriteAt(i, e, current));
    ctx.putImageData(image, 0, 0);
  }

  /** Every cell after event e, when few events are in (a page's first picture, a jump back to the
   *  start): the board filled with the plain hidden tile at once, then only the cells that differ. */
  function drawFromStart(e, current) {
    shown.fill(HIDDEN);
    fillTile(pixels, sprites[HIDDEN], s, r.rows, r.cols);
    let box = null; // the cells drawn otherwise
    notPlain(r, flags, e, current, look.mines, (i) => {
      paint(i, spriteAt(i, e, current));
      box = grown(box, i % r.cols, Math.floor(i / r.cols));
    });
    // On the canvas: the hidden tile everywhere at once (a pattern: no pixels to convert), then the
    // cells drawn otherwise, from the buffer.
    fillCanvas(ctx, sprites[HIDDEN], s);
    put(box);
  }

  /** Put the buffer's cells in `box` ([x0, y0, x1, y1], in cells; null: none) on the canvas. */
  function put(box) {
    if (box) ctx.putImageData(image, 0, 0, box[0] * s, box[1] * s, (box[2] - box[0] + 1) * s, (box[3] - box[1] + 1) * s);
  }

  /** Redraw only the cells that differ between events a and b. */
  function drawChange(a, curA, b, curB) {
    const lo = Math.min(a, b);
    const hi = Math.max(a, b);
    let box = null; // the dirty rectangle, in cells
    const touch = (i) => {
      const sp = spriteOf(i, b, curB);
      if (shown[i] === sp) return;
      paint(i, sp);
      box = grown(box, i % r.cols, Math.floor(i / r.cols));
    };
    // An event changes one cell, its own: the cell of its step is revealed (or written), or
    // enters or leaves the stack or queue. So the cells that differ are those of the events between.
    for (let e = Math.max(0, lo + 1); e <= hi && e < r.m; e++) touch(r.cell[r.eventStep[e]]);
    if (curA >= 0) touch(r.cell[curA]);
    if (curB >= 0) touch(r.cell[curB]);
    put(box);
  }

  return {
    /** A new reveal: nothing drawn yet, and new sprites at the next size (their colours follow its order). */
    reset(reveal) {
      r = reveal;
      shown = new Uint16Array(r.rows * r.cols);
      readFlags();
      s = 0;
    },
    readFlags,
    repaint: () => { s = 0; }, // new colours: new sprites at the next size
    size,
    setLook,
    drawAll,
    drawChange,
    shown: () => shown,
    side: () => s,
  };
}


/** Call `draw(i)` for each cell i of reveal r not drawn as the plain hidden tile after event e (it
 *  may call it twice for a cell): those shown before the click (a code but E, or M while `mines`
 *  show), flagged, touched by an event up to e (a cell no event has touched has its start's tile,
 *  plain), and the `current` one. They are found by the browser's own search (indexOf), not by a
 *  look at each cell. */
function notPlain(r, flags, e, current, mines, draw) {
  for (let code = mines ? MINE : MINE + 1; code < TILES; code++) {
    for (let i = r.start.indexOf(code); i >= 0; i = r.start.indexOf(code, i + 1)) draw(i);
  }
  for (let i = flags.indexOf(1); i >= 0; i = flags.indexOf(1, i + 1)) draw(i); // a flag is a 1
  for (let ev = 0; ev <= e && ev < r.m; ev++) draw(r.cell[r.eventStep[ev]]);
  if (current >= 0) draw(current);
}

/** Fill `pixels` (a board of rows x cols cells of s x s pixels) with `tile`: the first row of cells
 *  tile by tile, the others copied from it. */
function fillTile(pixels, tile, s, rows, cols) {
  if (s === 1) {
    pixels.fill(tile[0]);
    return;
  }
  const width = cols * s;
  for (let y = 0; y < s; y++) {
    for (let x = 0; x < cols; x++) pixels.set(tile.subarray(y * s, y * s + s), y * width + x * s);
  }
  for (let row = 1; row < rows; row++) pixels.copyWithin(row * s * width, 0, s * width);
}

/** `box` ([x0, y0, x1, y1] in cells, or null for none) grown to hold cell (x, y). */
function grown(box, x, y) {
  return box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
}

/** Copy `tile` (s x s pixels) into cell i of `pixels`, a board `cols` cells wide. */
function copyTile(pixels, tile, i, s, cols) {
  if (s === 1) { // one pixel a cell: the board is the buffer
    pixels[i] = tile[0];
    return;
  }
  const width = cols * s;
  const x0 = (i % cols) * s;
  const y0 = Math.floor(i / cols) * s;
  if (s <= 4) { // small tiles: a copy per pixel is quicker than a view per row
    for (let y = 0; y < s; y++) for (let x = 0; x < s; x++) pixels[(y0 + y) * width + x0 + x] = tile[y * s + x];
  } else {
    for (let y = 0; y < s; y++) pixels.set(tile.subarray(y * s, y * s + s), (y0 + y) * width + x0);
  }
}

/** Fill the whole canvas of `ctx` with `tile` (s x s pixels) at once: a pattern of it, copied over
 *  what was there (no pixels to convert, as a buffer put on the canvas has). */
function fillCanvas(ctx, tile, s) {
  const one = document.createElement("canvas");
  one.width = s;
  one.height = s;
  one.getContext("2d").putImageData(new ImageData(new Uint8ClampedArray(tile.buffer, tile.byteOffset, tile.byteLength), s, s), 0, 0);
  ctx.save();
  ctx.globalCompositeOperation = "copy";
  ctx.fillStyle = ctx.createPattern(one, "repeat");
  ctx.fillRect(0, 0, ctx.canvas.width, ctx.canvas.height);
  ctx.restore();
}
