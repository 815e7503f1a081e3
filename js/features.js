// Pure rules of the player's and teacher's features: the game picker, zoom, row and column labels, the
// time-travel slider, the statistics table, the keyboard help and "copy as text". No DOM, timers or model:
// js/widget.js wires them to the page; `node --test js/` tests them.
// js/build.mjs inlines this file into src/ipyminesweeper/static/widget.js (the `export ` keywords are dropped).
import { CONSTANTS } from "./constants.js";
import { formatPercent } from "./helpers.js";

const { levels: LEVELS_TABLE, first_clicks, first_click_text, first_click_clear, board, cell, key_help } = CONSTANTS;

/** The classic levels, name -> [rows, cols, mines], from Python (ipyminesweeper.LEVELS). */
export const LEVELS = /** @type {Record<string, number[]>} */ (LEVELS_TABLE);
/** The first-click policies in the picker's order, with their words. */
export const FIRST_CLICKS = first_clicks;
export const FIRST_CLICK_TEXT = /** @type {Record<string, string>} */ (first_click_text);
/** The most cells a board may have (the engine's cap), and the fewest rows or columns. */
export const MAX_CELLS = board.max_cells;
export const MIN_SIDE = board.min_side;

/** The most mines a rows x cols board holds under a first-click policy (the engine's max_mines). */
export function maxMines(rows, cols, firstClick) {
  const side = /** @type {Record<string, number>} */ (first_click_clear)[firstClick] ?? 1;
  return rows * cols - Math.min(rows, side) * Math.min(cols, side);
}

/** A count typed into the picker: {value} or {error} saying what is wrong with it. */
export function parseCount(key, raw) {
  const text = String(raw ?? "").trim();
  if (text === "") return { error: `${key} is empty: type a number` };
  const n = Number(text);
  if (!Number.isFinite(n)) return { error: `${key} = ${text} is not a number` };
  if (!Number.isInteger(n)) return { error: `${key} = ${text} is not a whole number` };
  return { value: n };
}

const plural = (n, word) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** Why a custom game cannot start (the engine's own limits, checked here first), or "" when it can. */
export function customGameError(rows, cols, mines, firstClick) {
  if (rows < MIN_SIDE) return `rows = ${rows}: a board has at least ${plural(MIN_SIDE, "row")}`;
  if (cols < MIN_SIDE) return `columns = ${cols}: a board has at least ${plural(MIN_SIDE, "column")}`;
  if (rows * cols > MAX_CELLS) {
    return `${rows}×${cols} is ${plural(rows * cols, "cell")}: the most is ${MAX_CELLS.toLocaleString("en-US")} (2000×2000, say)`;
  }
  if (mines < 0) return `mines = ${mines}: the number of mines cannot be negative`;
  const limit = maxMines(rows, cols, firstClick);
  if (mines > limit) return `${plural(mines, "mine")} do not fit ${rows}×${cols} with a first click "${firstClick}": at most ${limit.toLocaleString("en-US")}`;
  return "";
}

/**
 * The new_game request for the picker's choice, or {error} saying why it cannot start.
 * @param {{level: string, rows?: string | number, cols?: string | number, mines?: string | number,
 *   firstClick: string}} choice
 * @returns {{request?: import("./wire.js").Request, error?: string}}
 */
export function pickerRequest(choice) {
  const firstClick = FIRST_CLICKS.includes(choice.firstClick) ? choice.firstClick : "opening";
  if (choice.level in LEVELS) return { request: { action: "new_game", level: choice.level, first_click: firstClick } };
  const out = {};
  for (const [key, word] of [["rows", "rows"], ["cols", "columns"], ["mines", "mines"]]) {
    const parsed = parseCount(word, choice[key]);
    if (parsed.error) return { error: parsed.error };
    out[key] = parsed.value;
  }
  const error = customGameError(out.rows, out.cols, out.mines, firstClick);
  if (error) return { error };
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

export const MIN_CELL = cell.min;
export const MAX_CELL = cell.max;
export const AUTO_MIN_CELL = cell.fit_min;
export const AUTO_MAX_CELL = cell.fit_max;
export const SMALL_CELL = cell.small;

/** The cell size to draw: the zoom when set (16..64), else the size that fits the width, 24 to 28 px: never
 * under WCAG 2.5.8's 24 px target (a board wider than its output scrolls inside its frame instead). */
export function cellSize(zoom, width, cols) {
  if (zoom >= MIN_CELL) return Math.min(MAX_CELL, zoom);
  if (!(width > 0) || !(cols > 0)) return AUTO_MAX_CELL;
  return Math.max(AUTO_MIN_CELL, Math.min(AUTO_MAX_CELL, Math.floor(width / cols)));
}

/** Small cells (under SMALL_CELL px) are flat and drawn with a 1 px gap, on top of the cell's own size. */
export const isSmall = (size) => size < SMALL_CELL;
export const gapOf = (size) => (isSmall(size) ? 1 : 0);
/** The distance from one cell to the next, in px: the cell plus its gap (never under MIN_CELL + gap). */
export const pitchOf = (size) => size + gapOf(size);

/** The zoom after pressing − (direction -1) or + (+1) at the current drawn size: steps of 4 px, 16..64. */
export function zoomStep(current, direction) {
  const step = cell.zoom_step;
  const next = Math.round(current / step) * step + step * Math.sign(direction);
  return Math.max(MIN_CELL, Math.min(MAX_CELL, next));
}

/** The text of row and column labels: the same 0-based numbers as the reasons' "(row,col)". */
export const labelTexts = (n) => Array.from({ length: n }, (_, i) => String(i));

/** The time-travel slider's line for board `index` of `length`. Looking back, how that board was reached
 * (the line grows with it: it is never cut); live, only where the game is (the move is in the reason line). */
export function historyText(index, length, step, lookingBack = true) {
  if (length <= 1) return "Move 0 of 0: the start of the game";
  if (!lookingBack) return `Move ${index} of ${length - 1}: the game now`;
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
  const seconds = (v) => (typeof v === "number" && Number.isFinite(v) ? `${Math.floor(v)} s` : "–"); // as the LED
  const rate = s.played ? formatPercent(s.won / s.played) : "–";
  return [
    String(s.level),
    String(s.first_click),
    String(s.played),
    `${s.won} (${rate})`,
    seconds(s.best_seconds),
    seconds(s.median_seconds),
    `${s.streak} / ${s.best_streak}`,
    typeof s.best_bbbv_per_second === "number" && Number.isFinite(s.best_bbbv_per_second) ? s.best_bbbv_per_second.toFixed(2) : "–",
    typeof s.best_efficiency === "number" && Number.isFinite(s.best_efficiency) ? formatPercent(s.best_efficiency) : "–",
  ];
}
/** Two times, two rules, said in the headers: the best counts only wins without help, the median every win; the
 * best 3BV/s and efficiency (3BV / clicks) count wins without help too. */
export const STATS_HEADERS = [
  "level", "first click", "played", "won", "best (no help)", "median (all wins)", "streak / best", "best 3BV/s",
  "best efficiency",
];

/** The text "copy as text" puts on the clipboard: the view, one line per row (as `w.text` in Python). */
export function boardText(cells, rows, cols) {
  const lines = [];
  for (let r = 0; r < rows; r++) lines.push(cells.slice(r * cols, (r + 1) * cols));
  return lines.join("\n");
}

/** Every key the widget understands, for the help panel (the same keys as keyOf in helpers.js). */
export const KEY_HELP = /** @type {[string, string][]} */ (key_help);

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

/**
 * Where Tab goes in a modal dialog of `count` controls from control `index` (Shift+Tab: `back`): the index to
 * focus when it must wrap around (past the last, before the first), else -1 (the browser's own Tab stays
 * inside). A focus outside the controls (-1) goes to the first, or the last going back.
 */
export function wrapFocus(index, count, back) {
  if (count <= 0) return -1;
  if (index < 0) return back ? count - 1 : 0;
  if (back) return index === 0 ? count - 1 : -1;
  return index === count - 1 ? 0 : -1;
}

/** The review's move to show for a key or a button ("previous", "next", "mistake": the next move not as good as
 * the solver's), or -1 when there is none. */
export function reviewTarget(review, step) {
  if (!review.open || !review.count) return -1;
  if (step === "previous") return review.index > 0 ? review.index - 1 : -1;
  if (step === "next") return review.index < review.count - 1 ? review.index + 1 : -1;
  return review.mistakes.find((i) => i > review.index) ?? -1;
}

/** Why a review key did nothing, for the live region: the first or last move, or no mistake after this one. */
export function reviewEdgeSpeech(step) {
  if (step === "previous") return "the review is at its first move";
  if (step === "next") return "the review is at its last move";
  return "no later move is less good than the solver's";
}

/** The shared game in a page's addresses (the address now, and the one the page was opened with: JupyterLite
 * drops the fragment once it has opened the notebook): the text after `#game=`, or "". */
export function gameInAddress(addresses) {
  for (const address of addresses) {
    const fragment = String(address ?? "").split("#").slice(1).join("#");
    const part = fragment.split("&").find((p) => p.startsWith("game="));
    if (part) return part.slice("game=".length);
  }
  return "";
}

/** The root of the offline site a page is on ("http://host:8000/" for ".../lab/index.html?path=..."), or "". */
export function siteBase(href) {
  const found = /^(https?:\/\/[^?#]*\/)lab\/index\.html(?:[?#]|$)/.exec(String(href ?? ""));
  return found ? found[1] : "";
}

/** A link made by Python, on this page's own site when the page is the offline site (else Python's site). */
export function linkAddress(url, site) {
  const at = url.indexOf("lab/index.html");
  return site && at > 0 ? site + url.slice(at) : url;
}

/** What copying a link says: "copied a link to this game's review", or where to find it when copying failed. */
export function linkSpeech(mode, ok) {
  const what = { board: "board, from its start", moves: "moves", review: "review" }[mode] || "moves";
  return ok ? `copied a link to this game's ${what}` : "copying failed: the link is under the board, to select and copy";
}
