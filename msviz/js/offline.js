// msviz/js/offline.js: what a page answers in place of a kernel: a game's clicks, a quiz's start
// again, a quiz bank's answers. The rules stay in Python: each answer is looked up in what Python
// worked out when the notebook ran (msviz/rendition.py's game_table, msviz/homework.py's
// practice table); nothing is judged here.
import { renderBank } from "./bank.js";
import { HOSTS, PageModel } from "./page.js";
import { BOOM, HIDDEN, MINE } from "./reveal.js";
import { fill } from "./words.js";

const CALL = 0; // msviz.EVENT_LABELS: a call, then its return
const RETURN = 1;

/** Bytes as a binary trait arrives from a kernel: a DataView. */
const bytes = (array) => new DataView(array.buffer, array.byteOffset, array.byteLength);

/** The game: a click looked up in its board's table (game_table): the group of the cell clicked,
 *  its cells still hidden revealed in the order Python's reveal reached them; flags planted and
 *  lifted; New game starts the same board again (a random one: laid at the first click, as
 *  Python lays it for that click). `table`: {boards, first (a board a first click, or null),
 *  board (the board in play, -1 before the first click), now (its tile codes), flags, lost, won,
 *  mines, said}. */
HOSTS.game = (model, table) => {
  const words = model.get("words");
  const cells = model.get("rows") * model.get("cols");
  let board = table.board;
  let now = Uint8Array.from(table.now);
  let flags = Uint8Array.from(table.flags);
  let lost = table.lost;
  let won = table.won;
  let said = table.said;

  const hidden = (i) => now[i] === HIDDEN || now[i] === MINE;
  const flagCount = () => flags.reduce((a, b) => a + b, 0);
  /** The status line: what happened, and the flags planted while the game goes on (Python's _say). */
  function say(text) {
    said = text;
    const n = flagCount();
    model.set("status", text + (n && !(lost || won) ? fill(words, "game_flags", { flags: n, mines: table.mines }) : ""));
  }
  /** Show a reveal of `steps` (cells, in order) from board `before` to `now`; none: the board alone. */
  function paint(before, steps, click) {
    const n = steps.length;
    const labels = new Uint8Array(2 * n);
    for (let k = 0; k < n; k++) [labels[2 * k], labels[2 * k + 1]] = [CALL, RETURN];
    const state = {
      start: before, final: now.slice(), step_cell: Int32Array.from(steps), event_label: labels,
      step_hidden: new Uint8Array(n), step_turn: new Uint8Array(n), flags: flags.slice(),
    };
    for (const [name, value] of Object.entries(state)) model.set(name, bytes(value));
    model.set("order", n ? "dfs" : "");
    model.set("click_cell", click);
    model.set("show_mines", lost);
    model.set("step", n - 1);
    model.set("generation", model.get("generation") + 1);
  }

  function click(r, c) {
    const i = r * model.get("cols") + c;
    if (lost || won) return say(fill(words, "game_over", {}));
    if (flags[i]) return undefined;
    if (board < 0) { // the first click: the board Python lays for it
      board = table.first[i];
      now = Uint8Array.from(table.boards[board].hidden);
    }
    if (!hidden(i)) return undefined;
    const b = table.boards[board];
    const g = b.group[i];
    const steps = b.cells.slice(b.starts[g], b.starts[g + 1]).filter(hidden);
    const before = now.slice();
    for (const k of steps) {
      now[k] = b.final[k];
      flags[k] = 0; // a revealed cell carries no flag
    }
    lost = b.final[i] === BOOM;
    won = !lost && !now.some((code) => code === HIDDEN);
    paint(before, steps, [r, c]);
    if (lost) return say(fill(words, "game_lost", { row: r, col: c }));
    if (won) return say(fill(words, "game_won", { safe: cells - table.mines }));
    return say(fill(words, "game_revealed", { row: r, col: c, cells: steps.length }));
  }

  function flag(r, c) {
    const i = r * model.get("cols") + c;
    if (lost || won || !hidden(i)) return;
    flags[i] = flags[i] ? 0 : 1;
    model.set("flags", bytes(flags.slice()));
    say(said);
  }

  function newGame() {
    board = table.first ? -1 : 0;
    now = board < 0 ? new Uint8Array(cells) : Uint8Array.from(table.boards[0].hidden);
    flags = new Uint8Array(cells);
    lost = won = false;
    paint(now.slice(), [], [0, 0]);
    say(fill(words, "game_start", {}));
  }

  return (content) => {
    if (content.event === "click") click(content.row, content.col);
    else if (content.event === "flag") flag(content.row, content.col);
    else if (content.event === "restart") newGame();
  };
};

/** The predict quiz: judged in the view already (quiz.js); Start again goes back to its first step
 *  with a score of 0, as Python's start_again. */
HOSTS.quiz = (model) => (content) => {
  if (content.event !== "restart") return;
  model.set("quiz_right", 0);
  model.set("quiz_tries", 0);
  model.set("quiz_returned", false);
  model.set("step", model.get("step_cell").byteLength ? 0 : -1);
};

/** A quiz bank in practice: its questions drawn by bank.js, each answer looked up in the verdicts
 *  Python worked out for every answer it can be given (`table`: {questions, score, not_counted}).
 *  Returns the page's handle. */
HOSTS.bank = (holder, stage, table) => {
  const first = table.questions.map(() => null); // each question's first answer: its verdict's kind
  const model = new PageModel({ ...stage, index: 0 });
  /** The verdict of `value` to question i: [words, kind, line], as Python's answer gives them. */
  function judge(q, value) {
    if (q.answered_by === "cell") return q.cells[value[0] * q.cols + value[1]];
    if (q.answered_by === "choice") return q.choices_said[value] || q.refused;
    if (!value.length) return q.empty;
    const given = value.map(([r, c]) => r * q.cols + c).sort((a, b) => a - b);
    const right = given.length === q.solution.length && given.every((k, j) => k === q.solution[j]);
    const line = `bank.answer(${q.index}, [${given.map((k) => `(${Math.floor(k / q.cols)}, ${k % q.cols})`).join(", ")}])`;
    return [...(right ? q.right : q.wrong), line];
  }
  const told = table.questions.map(() => ["", "", ""]);
  const kept = table.questions.map(() => "");
  function show(i) {
    const q = table.questions[i];
    const answered = first.filter((kind) => kind !== null);
    const score = table.score.replace("{right}", answered.filter((kind) => kind === "right").length)
      .replace("{total}", table.questions.length).replace("{answered}", answered.length);
    const traits = {
      rows: q.rows, cols: q.cols, picture: q.picture, prompt: q.prompt, choices: q.choices, choice_keys: q.choice_keys,
      answered_by: q.answered_by, verdict: told[i][0], verdict_kind: told[i][1], keep: told[i][2], score_text: score, shown: i,
    };
    for (const [name, value] of Object.entries(traits)) model.set(name, value);
  }
  model.send = ({ event, index, value }) => {
    if (event !== "answer") return;
    const [said, kind, line] = judge(table.questions[index], value);
    if (kind === "refused") told[index] = [said, kind, ""];
    else {
      const counted = first[index] === null;
      if (counted) [first[index], kept[index]] = [kind, line]; // the line to keep: the answer that counted
      told[index] = [counted ? said : said + table.not_counted, kind, kept[index]];
    }
    show(index);
  };
  model.on("change:index", () => show(model.get("index")));
  show(0);
  renderBank({ model, el: holder });
  return { model, bank: holder.querySelector(".msviz-bank"), first };
};
