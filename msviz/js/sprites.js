// msviz/js/sprites.js: the tiles, drawn once per cell size: every symbol, plain, current,
// waiting on the stack or in the queue, or both.
import { LEGIBLE_CSS_PX } from "./reveal.js";

/** Draw every tile variant at `s` device pixels a side; return them as pixel arrays.
 *  Variants: plain, current (amber fill, black border), waiting (outlined in
 *  `waitingColor`), and both. */
export function makeSprites(palette, s, cssCell, waitingColor) {
  const canvas = document.createElement("canvas");
  canvas.width = s;
  canvas.height = s;
  const g = canvas.getContext("2d", { willReadFrequently: true });
  const edge = Math.max(1, Math.floor(s / 8));
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
  function glyph(d, halo = false) {
    g.fillStyle = palette[String(d)];
    g.font = `bold ${Math.round(s * 0.62)}px "DejaVu Sans", "Helvetica Neue", Arial, sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    if (halo) { // on the current cell's fill: a light edge keeps every digit legible
      g.strokeStyle = palette.light;
      g.lineWidth = Math.max(2, s / 8);
      g.lineJoin = "round";
      g.strokeText(String(d), s / 2, s * 0.55);
    }
    g.fillText(String(d), s / 2, s * 0.55);
  }
  function digit(d) {
    if (!glyphs) return flat(mix(palette.flat, palette[String(d)], palette.digit_blend));
    flat();
    glyph(d);
  }
  function flag() {
    hidden();
    if (s < 6) {
      g.fillStyle = palette.flag;
      g.fillRect(Math.floor(s / 4), Math.floor(s / 4), Math.ceil(s / 2), Math.ceil(s / 2));
      return;
    }
    g.fillStyle = palette.flag; // a red pennant on a black pole and foot
    triangle(g, s * 0.58, s * 0.2, s * 0.58, s * 0.55, s * 0.25, s * 0.38);
    g.fillStyle = palette.mine;
    g.fillRect(s * 0.55, s * 0.2, Math.max(1, s * 0.07), s * 0.55);
    g.fillRect(s * 0.3, s * 0.72, s * 0.5, Math.max(1, s * 0.1));
  }
  function ring(color, width, inset) {
    g.fillStyle = color;
    const a = inset;
    const b = s - inset;
    g.fillRect(a, a, b - a, width);
    g.fillRect(a, b - width, b - a, width);
    g.fillRect(a, a, width, b - a);
    g.fillRect(b - width, a, width, b - a);
  }
  // Each tile as (background, symbol drawn on it): the current cell keeps its symbol.
  const tiles = [
    [hidden, null], [hidden, null], [() => flat(), null],
    ...[1, 2, 3, 4, 5, 6, 7, 8].map((d) => [() => digit(d), glyphs ? () => glyph(d, true) : null]),
    [() => { flat(palette.boom); mine(); }, mine],
    [() => { flat(); mine(); }, mine],
    [flag, null],
  ];
  const sprites = [];
  for (let variant = 0; variant < 4; variant++) {
    for (const [background, symbol] of tiles) {
      if (variant & 1 && background === hidden) {
        // Current and still hidden (a cell just queued, or taken or called and not yet said):
        // raised as a hidden cell is, in an amber frame with the black border.
        background();
        ring(palette.current, Math.max(2, Math.floor(s / 4)), 0);
        ring(palette.current_border, Math.max(1, Math.floor(s / 7)), 0);
      } else if (variant & 1) { // the current cell: its symbol on amber, in a black border
        g.fillStyle = palette.current;
        g.fillRect(0, 0, s, s);
        if (symbol) symbol();
        ring(palette.current_border, Math.max(1, Math.floor(s / 7)), 0);
      } else {
        background();
      }
      if (variant & 2) { // on the stack or in the queue: an outline a little inside the cell
        ring(waitingColor, Math.max(1, Math.floor(s / 9)), variant & 1 ? Math.max(1, Math.floor(s / 7)) : s >= 12 ? 1 : 0);
      }
      sprites.push(new Uint32Array(g.getImageData(0, 0, s, s).data.buffer.slice(0)));
    }
  }
  return sprites;
}

/** Fill the triangle with corners (x0, y0), (x1, y1), (x2, y2) on context g. */
export function triangle(g, x0, y0, x1, y1, x2, y2) {
  g.beginPath();
  g.moveTo(x0, y0);
  g.lineTo(x1, y1);
  g.lineTo(x2, y2);
  g.closePath();
  g.fill();
}

/** Return colour `b` laid over `a` with coverage `t`, as a CSS colour. */
export function mix(a, b, t) {
  const rgb = (c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16));
  const [x, y] = [rgb(a), rgb(b)];
  return `rgb(${x.map((v, i) => Math.floor((1 - t) * v + t * y[i])).join(",")})`;
}

