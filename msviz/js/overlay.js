// msviz/js/overlay.js: over the board, the stack's path of arrows or the queue's numbers, the
// quiz's mark and the keyboard's cursor.
import { BLANK, waiting } from "./reveal.js";
import { triangle } from "./sprites.js";
import { isRight } from "./words.js";

/** Over the board, on its own canvas: the call chain as a path of arrows (DFS) or the queue
 *  numbered from its front (BFS), the quiz's mark on the cell guessed, and the keyboard's cursor.
 *  Returns {draw(r, s, dpr, e, mark, cursor)}: s device pixels a cell, dpr device pixels a CSS
 *  pixel, e the event shown, mark the quiz's (or null), cursor the cell under it (-1: none). */
export function makeOverlay(overlay, model) {
  const octx = overlay.getContext("2d");
  let r = null;
  let s = 0;
  let dpr = 1;
  const waitingColor = () => model.get("palette")[r.order === "bfs" ? "queue" : "stack"];

  /** The quiz's mark on the cell guessed: a green ring if it counts (another cell of the
   *  layer, breadth-first), a ring and a cross in the colour of wrong answers if not. */
  function drawMark(mark) {
    const x = (mark.cell % r.cols) * s;
    const y = Math.floor(mark.cell / r.cols) * s;
    const width = Math.max(2, Math.round(s * 0.12));
    octx.globalAlpha = 1;
    octx.lineWidth = width;
    octx.strokeStyle = model.get("palette")[isRight(mark.kind) ? "right" : "wrong"];
    octx.strokeRect(x + width / 2, y + width / 2, s - width, s - width);
    if (isRight(mark.kind)) return;
    octx.lineCap = "round";
    octx.beginPath();
    for (const [a, b, c, d] of [[0.3, 0.3, 0.7, 0.7], [0.7, 0.3, 0.3, 0.7]]) {
      octx.moveTo(x + a * s, y + b * s);
      octx.lineTo(x + c * s, y + d * s);
    }
    octx.stroke();
  }

  /** The call chain as a path of arrows (DFS), or the queue numbered from its front (BFS). */
  function drawWaiting(e) {
    if (!model.get("show_frontier") || !r || r.m === 0 || e < 0) return;
    // At most the 2,000 calls nearest the top (or cells nearest the front): the cells
    // themselves are outlined by the tiles, and a frame must stay a frame.
    const steps = waiting(r, e, 2000);
    if (!steps.length) return;
    const middle = (k) => [((r.cell[k] % r.cols) + 0.5) * s, (Math.floor(r.cell[k] / r.cols) + 0.5) * s];
    // The path ends at the edge of a top call that is a digit or a mine, so that its symbol stays in sight.
    const top = steps[steps.length - 1];
    const stopShort = r.order !== "bfs" && steps.length > 1 && r.final[r.cell[top]] !== BLANK;
    const centre = (k) => {
      if (!(stopShort && k === top)) return middle(k);
      const [x0, y0] = middle(steps[steps.length - 2]);
      const [x1, y1] = middle(k);
      const t = 1 - (0.5 * s) / Math.max(Math.abs(x1 - x0), Math.abs(y1 - y0)); // to the cell's border
      return [x0 + (x1 - x0) * t, y0 + (y1 - y0) * t];
    };
    const color = waitingColor();
    const css = s / dpr;
    const numbered = css >= 16 && steps.length <= 400;
    octx.font = `bold ${Math.max(9, Math.round(s * 0.36))}px sans-serif`;
    octx.textAlign = "center";
    octx.textBaseline = "middle";
    const label = (k, n) => { // a small number in a white pill, in the cell's top left corner
      const [x, y] = centre(k);
      const w = octx.measureText(String(n)).width + s * 0.14;
      const h = s * 0.42;
      octx.fillStyle = "rgba(255,255,255,0.92)";
      octx.fillRect(x - s / 2 + 1, y - s / 2 + 1, w, h);
      octx.fillStyle = color;
      octx.fillText(String(n), x - s / 2 + 1 + w / 2, y - s / 2 + 1 + h / 2 + 0.5);
    };
    if (r.order === "bfs") {
      if (numbered) steps.forEach((k, j) => label(k, j + 1));
      const [x, y] = centre(steps[0]); // the front of the queue: a thick ring
      octx.strokeStyle = color;
      octx.lineWidth = Math.max(2, s * 0.16);
      octx.strokeRect(x - s / 2 + octx.lineWidth / 2, y - s / 2 + octx.lineWidth / 2, s - octx.lineWidth, s - octx.lineWidth);
      return;
    }
    // The call chain: a line from each call to the call it made, darker towards the top,
    // with an arrowhead into each call when the cells are large enough to see one.
    const width = Math.max(1.5, s * 0.14);
    octx.lineCap = "round";
    octx.lineJoin = "round";
    octx.strokeStyle = color;
    octx.fillStyle = color;
    const n = steps.length;
    const bands = 8; // the path in a few strokes, each a shade darker towards the top
    octx.lineWidth = width;
    for (let band = 0; band < bands; band++) {
      const from = Math.max(1, Math.floor((band * n) / bands));
      const to = Math.floor(((band + 1) * n) / bands);
      if (from >= to) continue;
      octx.globalAlpha = 0.35 + (0.65 * (band + 1)) / bands;
      octx.beginPath();
      octx.moveTo(...centre(steps[from - 1]));
      for (let j = from; j < to; j++) octx.lineTo(...centre(steps[j]));
      octx.stroke();
    }
    // An arrowhead into each called cell, when the cells are large enough to see one.
    for (let j = 1; j < n && css >= 10 && n <= 400; j++) {
      const [x0, y0] = centre(steps[j - 1]);
      const [x1, y1] = centre(steps[j]);
      octx.globalAlpha = 0.35 + (0.65 * j) / Math.max(1, n - 1);
      const a = Math.atan2(y1 - y0, x1 - x0);
      const back = stopShort && j === n - 1 ? 0 : s * 0.2; // a stopped path's tip is on the border already
      const tipX = x1 - Math.cos(a) * back;
      const tipY = y1 - Math.sin(a) * back;
      const len = s * 0.3;
      triangle(octx, tipX, tipY, tipX - len * Math.cos(a - 0.5), tipY - len * Math.sin(a - 0.5),
               tipX - len * Math.cos(a + 0.5), tipY - len * Math.sin(a + 0.5));
    }
    octx.globalAlpha = 1;
    if (r.parent[steps[0]] < 0) { // the click's call: a dot where the chain starts
      const [x0, y0] = centre(steps[0]);
      octx.beginPath();
      octx.arc(x0, y0, Math.max(2, s * 0.16), 0, 2 * Math.PI);
      octx.fill();
    }
    // Each call's depth, in the corner of its cell; not on a digit or a mine (the top call), whose symbol it would hide.
    if (numbered) steps.forEach((k) => r.final[r.cell[k]] === BLANK && label(k, r.depth[k]));
  }

  /** The cursor: a ring in the focus colour, inside the cell, while the view has the keys. */
  function drawCursor(cursor) {
    if (cursor < 0 || cursor >= r.rows * r.cols) return;
    const width = Math.max(2, Math.round(s * 0.14));
    octx.globalAlpha = 1;
    octx.lineWidth = width;
    octx.strokeStyle = model.get("palette").focus;
    octx.setLineDash([]);
    octx.strokeRect((cursor % r.cols) * s + width / 2, Math.floor(cursor / r.cols) * s + width / 2, s - width, s - width);
  }

  return {
    draw(reveal, side, ratio, e, mark, cursor) {
      [r, s, dpr] = [reveal, side, ratio];
      octx.setTransform(1, 0, 0, 1, 0, 0);
      octx.clearRect(0, 0, overlay.width, overlay.height);
      drawWaiting(e);
      if (mark) drawMark(mark);
      // Be the computer's "end" mode, once judged: each kind of wrong step's first cell.
      for (const cell of (model.get("by_hand") || {}).marks || []) drawMark({ cell, kind: "wrong" });
      drawCursor(cursor);
    },
  };
}

