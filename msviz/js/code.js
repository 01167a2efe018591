// msviz/js/code.js: the code beside the board, its running line highlighted, and under it the
// stack's frames or the queue.
import { make } from "./parts.js";
import { BLANK, LABEL, eventKind, waiting, waitingCount } from "./reveal.js";

/** The code beside (or under) the board: its lines numbered, the line that runs highlighted and
 *  kept in the middle of the code's window, and under it the stack's frames or the queue.
 *  Returns {build, draw(r, mode, e, cur), follow, line()}. */
export function makeCodePanel(model, code, frames, side) {
  let line = 0; // the line highlighted, 0 for none

  /** Write the code's lines afresh (its source changed). */
  function build() {
    const source = model.get("code");
    code.replaceChildren();
    side.style.display = source ? "" : "none";
    source.replace(/\n$/, "").split("\n").forEach((text, i) => {
      // A long line wraps, its rest indented four past the line's own indent.
      const body = make("code", "", text);
      const hang = text.length - text.trimStart().length + 4;
      body.style.paddingLeft = `${hang}ch`;
      body.style.textIndent = `-${hang}ch`;
      code.append(make("span", "", make("i", "", String(i + 1)), body));
    });
    line = 0;
  }

  /** Keep the running line in the middle of the code's window (the code scrolls, never the notebook). */
  function follow() {
    const span = code.children[line - 1];
    if (!span || code.scrollHeight <= code.clientHeight) return;
    code.scrollTop = span.offsetTop - code.offsetTop - (code.clientHeight - span.offsetHeight) / 2;
  }

  /** Highlight the line that runs at event e (or, one step per cell, where cell `cur` gets its symbol). */
  function draw(r, mode, e, cur) {
    if (!model.get("code") || !r) return;
    const at = mode === "events" ? e : cur >= 0 ? r.reveal[r.cell[cur]] : -1;
    const next = at >= 0 ? model.get("code_lines")[eventKind(r, at)] || 0 : 0;
    if (next !== line) {
      if (line) code.children[line - 1]?.classList.remove("msviz-on");
      if (next) code.children[next - 1]?.classList.add("msviz-on");
      line = next;
    }
    follow(); // also after the layout changed
    frames.textContent = framesText(r, e, model.get("neighbors") || []);
  }
  return { build, draw, follow, line: () => line };
}

/** The stack's frames after event e, top first (each with the neighbour it tries next, of
 *  `neighbors`), or the queue, front first: a dozen, and how many more. */
export function framesText(r, e, neighbors) {
  const total = waitingCount(r, e);
  const steps = waiting(r, e, 13); // the dozen nearest the top or the front, and the one under them
  const cellOf = (k) => [Math.floor(r.cell[k] / r.cols), r.cell[k] % r.cols];
  const shown = r.order === "bfs" ? steps.slice(0, 12) : steps.slice(-12);
  const more = total - shown.length;
  const lines = [];
  if (r.order === "bfs") {
    lines.push(`queue, front first (${total}):`);
    // A cell's two numbers never part at the end of a line (a no-break space between them).
    lines.push(shown.map((k) => `(${cellOf(k).join(",\u00a0")})`).join(" ") + (more > 0 ? ` ... ${more} more` : ""));
    return lines.join("\n");
  }
  const offsets = neighbors.map((d) => d.join(","));
  const nextOf = (j) => { // the neighbour (1-based) frame j of the chain tries next
    const k = steps[j];
    const child = j + 1 < steps.length ? steps[j + 1] : e >= 0 && r.label[e] === LABEL.return ? r.eventStep[e] : -1;
    if (child < 0) return r.final[r.cell[k]] === BLANK ? 1 : 0;
    const [a, b] = [cellOf(child), cellOf(k)];
    return offsets.indexOf(`${a[0] - b[0]},${a[1] - b[1]}`) + 2;
  };
  lines.push(`stack, top first (${total} call${total === 1 ? "" : "s"}):`);
  for (let j = steps.length - 1; j >= steps.length - shown.length; j--) {
    const next = nextOf(j);
    const what = next === 0 ? "returns now" : next > offsets.length ? "all neighbours tried: returns next" : `next neighbour: ${next} of ${offsets.length}`;
    lines.push(`reveal(${cellOf(steps[j]).join(", ")})  ${what}`);
  }
  if (more > 0) lines.push(`... ${more} more`);
  return lines.join("\n");
}

