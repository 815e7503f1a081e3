// Pure rules of the player's and teacher's features: the game picker, zoom, row and column labels, the
// time-travel slider, the statistics table, the keyboard help and "copy as text". No DOM, timers or model:
// js/widget.js wires them to the page; `node --test js/` tests them.
// js/build.mjs inlines this file into src/ipyminesweeper/static/widget.js (the `export ` keywords are dropped).
import { formatPercent } from "./helpers.js";

/** The classic levels, as the engine defines them (ipyminesweeper.LEVELS). */
export const LEVELS = {
  beginner: [9, 9, 10],
  intermediate: [16, 16, 40],
  expert: [16, 30, 99],
};
export const FIRST_CLICKS = ["opening", "safe", "no-guess", "any"];
export const FIRST_CLICK_TEXT = {
  opening: "opening (the first click opens an area)",
  safe: "safe (the first click is never a mine)",
  "no-guess": "no guess (solvable by reasoning alone)",
  any: "any (the first click may lose)",
};
/** The board sizes the picker accepts (the engine allows up to 4,000,000 cells; the picker stays sane). */
export const MAX_SIDE = 200;

/**
 * The new_game request for the picker's choice, or {error} when the custom numbers are not valid.
 * The engine checks again (mines that cannot fit, for example) and its error is shown in the picker too.
 * @param {{level: string, rows?: string | number, cols?: string | number, mines?: string | number,
 *   firstClick: string}} choice
 */
export function pickerRequest(choice) {
  const firstClick = FIRST_CLICKS.includes(choice.firstClick) ? choice.firstClick : "opening";
  if (choice.level in LEVELS) return { request: { action: "new_game", level: choice.level, first_click: firstClick } };
  const out = {};
  for (const key of ["rows", "cols", "mines"]) {
    const text = String(choice[key] ?? "").trim();
    if (!/^\d+$/.test(text)) return { error: `${key} must be a whole number` };
    out[key] = Number(text);
  }
  for (const key of ["rows", "cols"]) {
    if (out[key] < 1 || out[key] > MAX_SIDE) return { error: `${key} must be between 1 and ${MAX_SIDE}` };
  }
  if (out.mines >= out.rows * out.cols) return { error: `${out.mines} mines do not fit ${out.rows * out.cols} cells` };
  return { request: { action: "new_game", rows: out.rows, cols: out.cols, mines: out.mines, first_click: firstClick } };
}

/** Which picker level a game is: "beginner", "intermediate", "expert" or "custom". */
export function pickerLevel(level) {
  return level in LEVELS ? level : "custom";
}

/** A game's settings in a few words: "expert 16×30, 99 mines · safe". */
export function describeGame(rows, cols, mines, firstClick, level) {
  const name = level in LEVELS ? `${level} ` : "";
  return `${name}${rows}×${cols}, ${mines} mines · ${firstClick}`;
}

export const MIN_CELL = 16;
export const MAX_CELL = 64;
export const AUTO_MAX_CELL = 28;

/** The cell size to draw: the zoom when set (16..64), else the size that fits the width, never below 16
 * (a big board then scrolls inside the output area instead of shrinking into illegible cells). */
export function cellSize(zoom, width, cols) {
  if (zoom >= MIN_CELL) return Math.min(MAX_CELL, zoom);
  if (!(width > 0) || !(cols > 0)) return AUTO_MAX_CELL;
  return Math.max(MIN_CELL, Math.min(AUTO_MAX_CELL, Math.floor(width / cols)));
}

/** The zoom after pressing − (direction -1) or + (+1) at the current drawn size: steps of 4 px, 16..64. */
export function zoomStep(current, direction) {
  const next = Math.round(current / 4) * 4 + 4 * Math.sign(direction);
  return Math.max(MIN_CELL, Math.min(MAX_CELL, next));
}

/** The text of row and column labels: the same 0-based numbers as the reasons' "(row,col)". */
export const labelTexts = (n) => Array.from({ length: n }, (_, i) => String(i));

/** The time-travel slider's words for board `index` of `length`, with how it was reached. */
export function historyText(index, length, step) {
  if (length <= 1) return "Move 0 of 0: the start of the game";
  const text = step && typeof step.text === "string" && step.text ? step.text : index === 0 ? "the start" : "";
  return `Move ${index} of ${length - 1}: ${text}`;
}

/**
 * Whether the history slider's thumb may be put on the board on screen. Not while the player's own move of
 * the slider is on its way to Python (`scrubPending`): an update of another trait arriving first (the timer's
 * `elapsed`, say) still says "live" and would snap the thumb back to the end, where it would then stay,
 * since a focused slider is otherwise left where the player holds it, unless the game went back to live.
 */
export function sliderFollows(focused, viewing, scrubPending) {
  if (scrubPending) return false;
  return !focused || viewing < 0;
}

/** The history index after a step of `delta` from what is on screen (`viewing` -1 is the live board). */
export function scrubTarget(viewing, length, delta) {
  const here = viewing < 0 ? length - 1 : viewing;
  return Math.max(0, Math.min(length - 1, here + delta));
}

/** One row of the statistics panel, as cell texts. */
export function statsRow(s) {
  const seconds = (v) => (typeof v === "number" && Number.isFinite(v) ? `${Math.round(v)} s` : "–");
  const rate = s.played ? formatPercent(s.won / s.played) : "–";
  return [
    String(s.level),
    String(s.first_click),
    String(s.played),
    `${s.won} (${rate})`,
    seconds(s.best_seconds),
    seconds(s.median_seconds),
    `${s.streak} / ${s.best_streak}`,
  ];
}
export const STATS_HEADERS = ["level", "first click", "played", "won", "best", "median", "streak / best"];

/** The text "copy as text" puts on the clipboard: the view, one line per row (as `w.text` in Python). */
export function boardText(cells, rows, cols) {
  const lines = [];
  for (let r = 0; r < rows; r++) lines.push(cells.slice(r * cols, (r + 1) * cols));
  return lines.join("\n");
}

/** Every key the widget understands, for the help panel (the same keys as keyAction in helpers.js). */
export const KEY_HELP = [
  ["Arrows, Home, End", "move the cursor"],
  ["Space, Enter", "reveal (on a number: chord)"],
  ["F", "flag (with ? marks on: flag, ?, covered)"],
  ["C", "chord"],
  ["G", "flag mode: taps flag"],
  ["H", "hint: show the strategy's next move"],
  ["S", "step: play the strategy's next move"],
  ["P", "play or pause the strategy"],
  ["U, Z", "undo"],
  ["[ ]", "back and forward through the history"],
  ["N", "new game"],
  ["Ctrl+C", "copy the board as text"],
  ["?", "this help"],
  ["Esc", "close panels, back to the live game"],
];

/** The move line under the board: what, where, why, and what the strategy knew (a probability or a score). */
export function describeMove(move, prefix = "") {
  if (!move || typeof move !== "object" || !move.action) return "";
  let text = `${prefix}${move.action} (${move.row},${move.col})`;
  if (typeof move.probability === "number") text += ` · mine probability ${formatPercent(move.probability)}`;
  else if (typeof move.score === "number") text += ` · score ${move.score.toFixed(2)} (not a probability)`;
  if (move.strategy) text += ` · ${move.strategy}`;
  if (move.reason) text += ` — ${move.reason}`;
  return text;
}

/** Flat indices of a move's [row, col] pairs that are on the board. */
export function cellsOf(pairs, rows, cols) {
  const out = [];
  for (const p of Array.isArray(pairs) ? pairs : []) {
    if (Array.isArray(p) && Number.isInteger(p[0]) && Number.isInteger(p[1]) && p[0] >= 0 && p[1] >= 0 &&
        p[0] < rows && p[1] < cols) {
      out.push(p[0] * cols + p[1]);
    }
  }
  return out;
}
