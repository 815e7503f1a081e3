// The synced traitlets, decoded once into a plain object (the front end's Model). Pure: no DOM.
// Python computes every synced value (src/ipyminesweeper/widget/render.py); this is the one place where the
// front end parses them, so `viewing`, the history length and the cells are read the same way everywhere.
import { decodeProbabilities } from "./helpers.js";
import { applyPatch, bytesOf, readBoardPatch } from "./patch.js";

/** The traitlets the front end reads; a change of any of them re-renders. */
export const TRAITS = [
  "rows", "cols", "mines", "first_click", "level", "cells", "status", "mines_left", "started_at", "ended_at",
  "elapsed", "can_undo", "summary", "error", "error_details", "strategies", "strategy", "last_move",
  "hint_move", "show_probabilities", "probabilities", "autoplaying", "delay", "labels", "cell_size",
  "question_marks", "marks", "history_length", "viewing", "history_step", "stats_table", "handled",
  "cells_version", "board_patch", "busy",
];

const CELLS_RE = /^[.f0-8*XFx]*$/;

/**
 * @typedef {{action?: string, row?: number, col?: number, reason?: string, probability?: number | null,
 *   score?: number | null, strategy?: string, numbers?: number[][], constrained?: number[][], text?: string}} Move
 * @typedef {{
 *   rows: number, cols: number, cells: string, status: string, minesLeft: number, mines: number,
 *   startedAt: number, endedAt: number, elapsed: number, canUndo: boolean, summary: string, error: string,
 *   errorDetails: string, strategies: string[], strategy: string, lastMove: Move, hintMove: Move,
 *   showProbabilities: boolean, probabilities: import("./helpers.js").Overlay, autoplaying: boolean, delay: number,
 *   labels: boolean, cellSize: number, questionMarks: boolean, marks: Set<number>, historyLength: number,
 *   viewing: number, historyStep: Move & {index?: number}, statsTable: Record<string, any>[], level: string,
 *   firstClick: string, handled: number, problem: string, raw: Record<string, any>, version: number,
 *   missing: number, busy: string,
 * }} Model
 */

const num = (v, fallback = 0) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const str = (v) => (typeof v === "string" ? v : "");
const obj = (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : {});

/** Why a board cannot be shown ("" when it can): a shape and a `cells` string that disagree, or junk. */
export function boardProblem(rows, cols, cells) {
  if (!(rows > 0) || !(cols > 0)) return `bad board shape ${rows}x${cols}`;
  if (cells.length !== rows * cols) return `cells has ${cells.length} characters, expected ${rows * cols}`;
  if (!CELLS_RE.test(cells)) return "cells holds a character outside the view alphabet";
  return "";
}

/** The first character of a big board's packed view (src/ipyminesweeper/widget/board_sync.py: PACKED). */
export const PACKED = "~";

/** The bytes of a base64 text (atob: browsers and node). */
function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The whole view from a synced `cells` value: the view itself, or (a big board: wire_cells in
 * src/ipyminesweeper/widget/board_sync.py) PACKED and the base64 of the patch from the all-covered view, which
 * decodePatch checks as it reads it (no pass over the rebuilt view). `problem` says why it cannot be shown
 * ("" when it can).
 * @returns {{cells: string, problem: string}}
 */
export function readCells(value, rows, cols) {
  const text = str(value);
  if (!text.startsWith(PACKED)) return { cells: text, problem: boardProblem(rows, cols, text) };
  if (!(rows > 0) || !(cols > 0)) return { cells: "", problem: boardProblem(rows, cols, "") };
  try {
    return { cells: applyPatch(".".repeat(rows * cols), fromBase64(text.slice(PACKED.length))).cells, problem: "" };
  } catch (e) {
    return { cells: "", problem: `packed cells: ${/** @type {Error} */ (e).message}` };
  }
}

/**
 * The board: the synced `cells` (the whole view, at `cells_version`), or the cells decoded last time when the
 * synced ones are not newer, then the synced `board_patch` applied when it is the next version (see
 * src/ipyminesweeper/widget/board_sync.py). `missing` is the version of a patch that could not be applied
 * (one was missed): the front end then asks for the whole board. A patch is checked as it is read, so the
 * patched view is not parsed again.
 */
function decodeBoard(get, previous) {
  const rows = Math.trunc(num(get("rows")));
  const cols = Math.trunc(num(get("cols")));
  const raw = get("cells");
  const rawVersion = Math.trunc(num(get("cells_version")));
  const unchanged = previous && previous.raw.cells === raw && previous.raw.version === rawVersion;
  const fromPrevious = unchanged && previous.rows === rows && previous.cols === cols;
  const read = fromPrevious ? previous : readCells(raw, rows, cols);
  let cells = read.cells;
  let version = fromPrevious ? previous.version : rawVersion;
  const problem = read.problem;
  let missing = 0;
  const bytes = bytesOf(get("board_patch"));
  if (bytes.length) {
    try {
      const patch = readBoardPatch(bytes);
      if (patch.version === version + 1 && !problem) {
        cells = applyPatch(cells, patch.runs).cells;
        version = patch.version;
      } else if (patch.version > version) {
        missing = patch.version;
      }
    } catch {
      missing = version + 1;
    }
  }
  if (problem) cells = "";
  return { rows, cols, cells, problem, version, missing };
}

/** The overlay and the "?" marks, decoded again only when their synced values change. */
function decodeLayers(get, previous, size) {
  const probs = get("probabilities");
  const marks = get("marks");
  const keep = (key, value) => previous && previous.raw[key] === value && previous.raw.size === size;
  return {
    probabilities: keep("probabilities", probs) ? previous.probabilities : decodeProbabilities(probs, size),
    marks: keep("marks", marks)
      ? previous.marks
      : new Set((Array.isArray(marks) ? marks : []).filter((i) => Number.isInteger(i) && i >= 0 && i < size)),
  };
}

/**
 * Decode the synced state. `get` reads one traitlet (anywidget's `model.get`); `previous` is the last
 * decoded Model, whose parsed parts are reused when their raw values are the same objects.
 * @param {(name: string) => any} get
 * @param {Model | null} [previous]
 * @returns {Model}
 */
export function decodeModel(get, previous = null) {
  const board = decodeBoard(get, previous);
  const size = board.problem ? 0 : board.rows * board.cols;
  const layers = decodeLayers(get, previous, size);
  const historyLength = Math.max(1, Math.trunc(num(get("history_length"), 1)));
  const viewing = Math.trunc(num(get("viewing"), -1));
  return {
    ...board,
    ...layers,
    status: str(get("status")) || "ready",
    minesLeft: num(get("mines_left")),
    mines: num(get("mines")),
    startedAt: num(get("started_at")),
    endedAt: num(get("ended_at")),
    elapsed: num(get("elapsed")),
    canUndo: get("can_undo") === true,
    summary: str(get("summary")),
    error: str(get("error")),
    errorDetails: str(get("error_details")),
    strategies: (Array.isArray(get("strategies")) ? get("strategies") : []).map(String),
    strategy: str(get("strategy")),
    lastMove: obj(get("last_move")),
    hintMove: obj(get("hint_move")),
    showProbabilities: get("show_probabilities") === true,
    autoplaying: get("autoplaying") === true,
    delay: num(get("delay"), 0.25),
    labels: get("labels") === true,
    cellSize: Math.trunc(num(get("cell_size"))),
    questionMarks: get("question_marks") === true,
    historyLength,
    viewing: viewing >= 0 && viewing < historyLength ? viewing : -1,
    historyStep: obj(get("history_step")),
    statsTable: Array.isArray(get("stats_table")) ? get("stats_table") : [],
    level: str(get("level")),
    firstClick: str(get("first_click")) || "opening",
    handled: Math.trunc(num(get("handled"))),
    busy: str(get("busy")),
    raw: { cells: get("cells"), version: Math.trunc(num(get("cells_version"))), probabilities: get("probabilities"), marks: get("marks"), size },
  };
}

/** The board's view character at flat index `i`. */
export const cellAt = (model, i) => model.cells[i];
export const isLive = (model) => model.viewing < 0;
/** The history index on screen: the board being looked at, or the live game's. */
export const shownIndex = (model) => (model.viewing < 0 ? model.historyLength - 1 : model.viewing);
