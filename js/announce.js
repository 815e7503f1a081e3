// What the widget says to a screen reader, pure: what changed after a move ("opened 14 cells", "flagged
// (3,4), 9 mines left", "lost: mine at (3,4)", "won in 41 s"), a hint or the autoplayer's move and reason,
// the cells around the cursor and the counter and timer on demand, and during autoplay a summary at most
// once per SPEAK_EVERY_MS. js/ui.js keeps what was last heard and the autoplay tally in the UI state; the
// view writes the text into one polite live region (`.ipyms-announce`). No DOM: `node --test js/` tests it.
import { cellWord, elapsedSeconds, isNumber, neighbours } from "./helpers.js";
import { describeMove, historyText } from "./features.js";

/** During autoplay the moves are summarised, at most once this often. */
export const SPEAK_EVERY_MS = 1000;

/**
 * What the player last heard about the model: the board and the keys of the last move and hint.
 * @typedef {{cells: string, rows: number, cols: number, status: string, viewing: number, move: string, hint: string,
 *   review: string}} Heard
 * @typedef {{moves: number, opened: number, flagged: number, last: string}} Tally  autoplay's moves not yet
 *   spoken, and the words of the last one (said as it is when it is the only one: a slow autoplay is read move
 *   by move, with its reasons)
 */

/** @type {Tally} */
export const NO_TALLY = Object.freeze({ moves: 0, opened: 0, flagged: 0, last: "" });

const moveKey = (m) => (m && m.action ? `${m.action}@${m.row},${m.col}:${m.reason ?? ""}` : "");
const reviewKey = (r) => (r.open ? `${r.index}/${r.count}` : "");

/**
 * @param {import("./wire.js").Model} model
 * @returns {Heard}
 */
export function heardOf(model) {
  const { cells, rows, cols, status, viewing } = model;
  const review = reviewKey(model.review);
  return { cells, rows, cols, status, viewing, move: moveKey(model.lastMove), hint: moveKey(model.hintMove), review };
}

const pos = (i, cols) => `(${Math.floor(i / cols)},${i % cols})`;
const covered = (ch) => ".fFx".includes(ch); // F and x: the flags shown at the end
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** The cells that changed from `before` to `after` (the same shape): opened, flagged, unflagged, covered again. */
export function boardChanges(before, after) {
  const out = { opened: /** @type {number[]} */ ([]), flagged: /** @type {number[]} */ ([]), unflagged: /** @type {number[]} */ ([]), covered: 0 };
  if (before === after) return out;
  for (let i = 0; i < after.length; i++) {
    const a = before[i];
    const b = after[i];
    if (a === b) continue;
    if (covered(a) && !covered(b)) out.opened.push(i);
    else if (a === "." && b === "f") out.flagged.push(i);
    else if (a === "f" && b === ".") out.unflagged.push(i);
    else if (!covered(a) && covered(b)) out.covered++;
  }
  return out;
}

/** The changes of one move in words: "opened (3,4): 2", "opened 14 cells", "flagged (3,4), 9 mines left". */
export function changesSpeech(changes, cells, cols, minesLeft) {
  const parts = [];
  const { opened, flagged, unflagged } = changes;
  if (opened.length === 1) parts.push(`opened ${pos(opened[0], cols)}: ${cellWord(cells[opened[0]])}`);
  else if (opened.length) parts.push(`opened ${opened.length} cells`);
  for (const i of flagged) parts.push(`flagged ${pos(i, cols)}`);
  for (const i of unflagged) parts.push(`unflagged ${pos(i, cols)}`);
  if (changes.covered) parts.push(`undone: ${plural(changes.covered, "cell")} covered again`);
  if (flagged.length || unflagged.length) parts.push(`${plural(minesLeft, "mine")} left`);
  return parts.join(", ");
}

/** How the game ended, if it just did: "lost: mine at (3,4)", "won in 41 s" (with Python's summary). */
export function endSpeech(before, model) {
  if (before.status === model.status) return "";
  if (model.status === "lost") {
    const boom = model.cells.indexOf("X");
    return boom >= 0 ? `lost: mine at ${pos(boom, model.cols)}` : "lost";
  }
  if (model.status !== "won") return "";
  return model.summary || `won in ${elapsedSeconds(model.startedAt, model.endedAt, model.endedAt)} s`;
}

/** What a new model says that the player has not heard: a new game, an old board shown, a hint, a strategy's
 * move, what the move changed and how the game ended. */
export function modelSpeech(before, model) {
  const now = heardOf(model);
  if (now.rows !== before.rows || now.cols !== before.cols || (now.status === "ready" && before.status !== "ready")) {
    return `new game: ${model.rows} by ${model.cols}, ${plural(model.mines, "mine")}`;
  }
  if (now.review !== before.review) return reviewSpeech(before, model);
  if (now.viewing >= 0 && (now.viewing !== before.viewing || now.cells !== before.cells)) {
    return historyText(now.viewing, model.historyLength, model.historyStep, true);
  }
  if (now.viewing < 0 && before.viewing >= 0) return "back to the game";
  const parts = [];
  if (now.hint && now.hint !== before.hint) parts.push(describeMove(model.hintMove, "Hint: "));
  if (now.move && now.move !== before.move) parts.push(describeMove(model.lastMove));
  const end = endSpeech(before, model);
  // a loss shows every mine: that is not what the move opened
  if (!(end && model.status === "lost")) parts.push(changesSpeech(boardChanges(before.cells, now.cells), now.cells, now.cols, model.minesLeft));
  parts.push(end);
  return parts.filter(Boolean).join(". ");
}

/** The review, as it opens ("review: " and its summary, then the first move), steps ("move 12 of 80: reveal (3,4):
 * an unforced guess (25% mine) while (2,2) was certainly safe", with the solver's cell when the verdict does not
 * name it) and closes. The board it shows is the move's, not a change of the game: nothing else is said. */
export function reviewSpeech(before, model) {
  const review = model.review;
  if (!review.open) return "review closed: back to the game";
  const move = review.move;
  const best = move.best;
  let text = typeof move.text === "string" ? move.text : "";
  const where = best && Number.isInteger(best.row) ? `(${best.row},${best.col})` : "";
  if (move.better && where && !text.includes(where)) text += `; the solver's move: ${best.action} ${where}`;
  return before.review ? text : `review: ${review.summary}. ${text}`;
}

/** Autoplay's moves since the last summary, counted (a move of the strategy, the cells it opened or flagged). */
export function tallied(tally, before, model) {
  const changes = boardChanges(before.cells, model.cells);
  const moved = moveKey(model.lastMove) !== before.move ? 1 : 0;
  const last = modelSpeech(before, model);
  return { moves: tally.moves + moved, opened: tally.opened + changes.opened.length, flagged: tally.flagged + changes.flagged.length, last };
}

/** The summary of autoplay's moves: "autoplay: 6 moves, opened 31 cells, flagged 2, 8 mines left". */
export function tallySpeech(tally, minesLeft) {
  if (tally.moves <= 1) return tally.last;
  const parts = [`autoplay: ${plural(tally.moves, "move")}`, `opened ${plural(tally.opened, "cell")}`];
  if (tally.flagged) parts.push(`flagged ${tally.flagged}`);
  return `${parts.join(", ")}, ${plural(minesLeft, "mine")} left`;
}

/** The cells around (row, col), on demand: "around (3,4): 1 flag, 2 covered, numbers 1, 2, 2". */
export function aroundSpeech(cells, rows, cols, row, col) {
  const around = neighbours(row, col, rows, cols).map(([r, c]) => cells[r * cols + c]);
  const count = (test) => around.filter(test).length;
  const flags = count((ch) => ch === "f");
  const hidden = count((ch) => ch === ".");
  const empty = count((ch) => ch === "0");
  const numbers = around.filter(isNumber).sort();
  const parts = [];
  if (flags) parts.push(plural(flags, "flag"));
  if (hidden) parts.push(`${hidden} covered`);
  if (numbers.length) parts.push(`${numbers.length === 1 ? "number" : "numbers"} ${numbers.join(", ")}`);
  if (empty) parts.push(`${empty} empty`);
  return `around (${row},${col}): ${parts.join(", ") || "nothing"}`;
}

/** Whether `model` says nothing new to a player who heard `before`. */
export function sameHeard(before, model) {
  const now = heardOf(model);
  return Object.keys(now).every((k) => now[k] === before[k]);
}

/** The counter and the timer, on demand: "playing: 9 mines left, 41 s". */
export function statusSpeech(status, minesLeft, seconds) {
  return `${status}: ${plural(minesLeft, "mine")} left, ${seconds} s`;
}
