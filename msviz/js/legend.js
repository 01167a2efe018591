// msviz/js/legend.js: the legend under a board: the current cell, and the stack's path or the queue.
import { make } from "./parts.js";
import { triangle } from "./sprites.js";

/** A legend chip: a small canvas drawn like the board's marks. */
function chip(paint) {
  const c = document.createElement("canvas");
  const px = Math.round(16 * (window.devicePixelRatio || 1));
  c.width = c.height = px;
  c.className = "msviz-chip";
  paint(c.getContext("2d"), px);
  return c;
}

/** The legend of `model`'s board in element `legend`. Returns {draw}: draw it afresh. */
export function makeLegend(model, legend) {
  return { draw: () => drawLegend(model, legend) };
}

/** Draw the legend of `model`'s board into `legend`: its chips and their words. */
export function drawLegend(model, legend) {
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
