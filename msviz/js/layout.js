// msviz/js/layout.js: where a board view's parts go: board, caption and code all in sight.
import { make } from "./parts.js";

// The view has the width of its output, and the height the notebook (or page) shows
// less what lies above it in its output (a player's controls). Beside the board the
// code is whole; under the caption it is a window of CODE_WINDOW lines that follows the
// running line. The arrangement that gives the larger cells wins (beside, if equal).

export const CODE_WINDOW = 5; // lines of code in sight when the code is under the board
export const LINE_PX = 12 * 1.45; // a line of code
export const FRAME_LINES = 4; // lines of the calls' rows in sight when they are under the board
export const LEAST_CELL = 12; // the smallest side of a cell the height may ask for (a cell stays clickable)
export const LEAST_BOARD = 200; // the narrowest a board's column gets beside another (its caption's words)
export const BOARDS_GAP = 16; // between two boards side by side (view.css's .msviz-boards gap)

/** The rows of caption a board `w` CSS pixels wide keeps, for the longest caption it may show (so
 *  that the board does not jump from step to step). Pure arithmetic. */
export function captionLines(w) {
  return Math.max(2, Math.min(5, Math.ceil(1500 / Math.max(w, 200))));
}

/** The side of a cell, in CSS pixels, for a board of `rows` x `cols` in `w` x `h` pixels: at most
 *  `most`, the whole width, and at least LEAST_CELL whatever the height. Pure arithmetic. */
export function cellFit(rows, cols, w, h, most) {
  return Math.min(most, w / cols, Math.max(LEAST_CELL, h / rows));
}

/** Whether boards of `cols` columns each fit side by side in `width` CSS pixels: each column at least
 *  LEAST_BOARD wide and each board's cells at least LEAST_CELL (else they go one under another).
 *  Pure arithmetic. */
export function sideBySide(width, cols) {
  const each = (width - BOARDS_GAP * (cols.length - 1)) / cols.length;
  return each >= LEAST_BOARD && cols.every((c) => each / c >= LEAST_CELL);
}

/** The height `node` takes in its column, its margins included (0 when it is not shown). */
function outer(node) {
  if (!node.offsetHeight) return 0;
  const style = getComputedStyle(node);
  return node.offsetHeight + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
}

/** The layout of one board view: `els` are its elements (root, title, legend, quiz's rule and
 *  verdict, a simulation's rule and panel, caption, the left column, code, frames). Returns {arrange(r), reset()}: arrange chooses
 *  the arrangement for reveal r and returns the side of a cell; reset makes it choose afresh. */
export function makeLayout(model, el, els) {
  const { root, title, legend, quizRule, quizSaid, text, left, code, frames } = els;
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
    // Above the view: what is above its boards (a status line, the bar), not a board above it: two
    // boards one under the other are each in sight by itself.
    const frame = root.closest("[data-msviz-frame], .jp-OutputArea-output, .output_subarea");
    const top = (root.closest(".msviz-boards") || root).getBoundingClientRect().top;
    const above = frame ? top - frame.getBoundingClientRect().top : 0;
    return height - Math.max(0, above) - 8;
  }

  /** The width the code asks for beside the board: its longest line (up to 46 characters) and its numbers. */
  function codeWidth(source) {
    if (!charPx) {
      const probe = make("code", "", "0".repeat(20));
      probe.style.whiteSpace = "pre"; // unwrapped however narrow the code's column is now
      code.append(probe);
      charPx = probe.getBoundingClientRect().width / 20 || 7.2;
      probe.remove();
    }
    const longest = Math.max(...source.split("\n").map((line) => line.length));
    return Math.min(longest, 46) * charPx + 12 * 2.2 + 8 + 4 + 8 + 2;
  }

  /** Choose the arrangement and the caption's reserved lines; return the side of a cell in CSS pixels. */
  function arrange(r) {
    const width = root.clientWidth || el.clientWidth || 600;
    const source = model.get("code");
    const most = model.get("max_cell");
    const fixed = () => title.offsetHeight + legend.offsetHeight + quizRule.offsetHeight + quizSaid.offsetHeight
      + outer(els.sim.rule) + outer(els.sim.panel) + 16;
    const height = room();
    const textPx = parseFloat(getComputedStyle(text).fontSize) || 16;
    const fit = (w, h) => cellFit(r.rows, r.cols, w, h, most);
    let beside = 0;
    const wanted = source ? codeWidth(source) : 0;
    if (source && width - wanted - 16 >= 200) {
      const boardWidth = width - wanted - 16;
      beside = fit(boardWidth, height - fixed() - captionLines(boardWidth) * 1.3 * textPx);
    }
    const windowPx = source ? (CODE_WINDOW + FRAME_LINES) * LINE_PX + 8 + 8 + 6 : 0;
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
    frames.style.maxHeight = `${(next === "beside" ? 7 : FRAME_LINES) * LINE_PX}px`;
    return cell;
  }
  return { arrange, reset: () => { arrangement = ""; } };
}
