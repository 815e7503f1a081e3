// The wire, the front end's side: the synced traitlets decoded once into a plain object (the Model), the
// board's wire form (whole, patched, packed; resync), and the `requests` the browser writes. Pure: no DOM.
// Python computes every synced value (src/ipyminesweeper/widget/render.py) and writes the board's wire form
// in src/ipyminesweeper/widget/board_wire.py; both sides read tests/golden/wire.json. This is the one place
// where the front end parses what Python sends, so the cells and the history are read the same way everywhere.
import { decodeProbabilities } from "./helpers.js";

/** The traitlets the front end reads; a change of any of them re-renders. */
export const TRAITS = [
  "rows", "cols", "mines", "first_click", "level", "cells", "status", "mines_left", "started_at", "ended_at",
  "elapsed", "can_undo", "summary", "error", "error_details", "strategies", "strategy", "last_move",
  "hint_move", "show_probabilities", "probabilities", "autoplaying", "delay", "labels", "cell_size",
  "question_marks", "marks", "history_length", "viewing", "history_step", "stats_table", "handled",
  "cells_version", "board_patch", "busy", "reviewing", "shared_link", "awaits_link", "game_metrics",
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
 *   missing: number, busy: string, review: Review, link: {mode: string, url: string}, awaitsLink: boolean,
 *   gameMetrics: string,
 * }} Model
 * @typedef {Move & {number?: number, kind?: string, good?: boolean, better?: boolean, best?: Move}} ReviewMove
 * @typedef {{open: boolean, index: number, count: number, summary: string, metrics: string, mistakes: number[],
 *   move: ReviewMove}} Review  the review panel (open: false while it is closed)
 */

const num = (v, fallback = 0) => (typeof v === "number" && Number.isFinite(v) ? v : fallback);
const str = (v) => (typeof v === "string" ? v : "");
const obj = (v) => (v && typeof v === "object" && !Array.isArray(v) ? v : {});

/** The view alphabet; a character's 4-bit code is its position here. */
export const ALPHABET = ".f012345678*XFx";

/** Read a varint at `at`: [value, next position]; throws on a truncated number. */
export function readVarint(bytes, at) {
  let value = 0;
  let scale = 1;
  for (;;) {
    if (at >= bytes.length || scale > 2 ** 28) throw new Error("a patch ends inside a number");
    const byte = bytes[at++];
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if (!(byte & 0x80)) return [value, at];
  }
}

/**
 * The runs of a patch: [{start, chars}], in order. Throws when a run does not fit `size` cells.
 * @param {Uint8Array} bytes
 * @param {number} size
 * @returns {{start: number, chars: string}[]}
 */
export function decodePatch(bytes, size) {
  const runs = [];
  let position = 0;
  let at = 0;
  while (at < bytes.length) {
    let gap;
    let length;
    [gap, at] = readVarint(bytes, at);
    [length, at] = readVarint(bytes, at);
    const start = position + gap;
    const packed = (length + 1) >> 1;
    if (length < 1 || start + length > size || at + packed > bytes.length) {
      throw new Error(`a run of ${length} cells at ${start} does not fit ${size} cells`);
    }
    let chars = "";
    for (let k = 0; k < length; k++) {
      const byte = bytes[at + (k >> 1)];
      const code = k & 1 ? byte & 0x0f : byte >> 4;
      if (code >= ALPHABET.length) throw new Error("a patch holds a state outside the view alphabet");
      chars += ALPHABET[code];
    }
    runs.push({ start, chars });
    at += packed;
    position = start + length;
  }
  return runs;
}

/** The view `cells` after a patch, and the flat indices it changed. */
export function applyPatch(cells, bytes) {
  const runs = decodePatch(bytes, cells.length);
  const parts = [];
  const changed = [];
  let position = 0;
  for (const { start, chars } of runs) {
    parts.push(cells.slice(position, start), chars);
    for (let k = 0; k < chars.length; k++) changed.push(start + k);
    position = start + chars.length;
  }
  parts.push(cells.slice(position));
  return { cells: parts.join(""), changed };
}

/**
 * A synced `board_patch` value: the version it produces, then runs.
 * @param {Uint8Array} bytes
 * @returns {{version: number, runs: Uint8Array}}
 */
export function readBoardPatch(bytes) {
  const [version, at] = readVarint(bytes, 0);
  return { version, runs: bytes.subarray(at) };
}

/** The bytes of a synced binary value: ipywidgets gives a DataView, other hosts an ArrayBuffer or a typed array. */
export function bytesOf(value) {
  if (value instanceof Uint8Array) return value;
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return new Uint8Array(0);
}

/** A varint's bytes: 7 bits per byte, low first, the high bit set on every byte but the last. */
function varint(n) {
  const out = [];
  while (n > 0x7f) {
    out.push((n % 128) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** The patch that turns view `before` into view `after` (the same shape): what board_wire.diff writes. */
export function diffCells(before, after) {
  const out = [];
  let position = 0;
  for (let i = 0; i < after.length; ) {
    if (before.charCodeAt(i) === after.charCodeAt(i)) {
      i++;
      continue;
    }
    let stop = i + 1;
    while (stop < after.length && before.charCodeAt(stop) !== after.charCodeAt(stop)) stop++;
    out.push(...varint(i - position), ...varint(stop - i));
    for (let k = i; k < stop; k += 2) {
      const low = k + 1 < stop ? ALPHABET.indexOf(after[k + 1]) : 0;
      out.push((ALPHABET.indexOf(after[k]) << 4) | low);
    }
    position = i = stop;
  }
  return Uint8Array.from(out);
}

/** The whole view as it travels (board_wire.wire_cells): the view, or for a board of PACKED_FROM cells or more,
 * PACKED and the base64 of the patch from the all-covered view when that is shorter. */
export function wireCells(cells) {
  if (cells.length < PACKED_FROM) return cells;
  const bytes = diffCells(".".repeat(cells.length), cells);
  let binary = "";
  for (let i = 0; i < bytes.length; i += 8192) binary += String.fromCharCode(...bytes.subarray(i, i + 8192));
  const packed = PACKED + btoa(binary);
  return packed.length < cells.length ? packed : cells;
}

/** Why a board cannot be shown ("" when it can): a shape and a `cells` string that disagree, or junk. */
export function boardProblem(rows, cols, cells) {
  if (!(rows > 0) || !(cols > 0)) return `bad board shape ${rows}x${cols}`;
  if (cells.length !== rows * cols) return `cells has ${cells.length} characters, expected ${rows * cols}`;
  if (!CELLS_RE.test(cells)) return "cells holds a character outside the view alphabet";
  return "";
}

/** The first character of a big board's packed view, and the size from which a view is packed. */
export const PACKED = "~";
export const PACKED_FROM = 16_384;

/** The bytes of a base64 text (atob: browsers and node). */
function fromBase64(text) {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * The whole view from a synced `cells` value: the view itself, or (a big board: wire_cells in
 * board_wire.py) PACKED and the base64 of the patch from the all-covered view, which
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
 * board_wire.py). `missing` is the version of a patch that could not be applied
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

/** A review index: a whole number from 0 below `count`, else -1. */
const indexIn = (v, count) => (Number.isInteger(v) && v >= 0 && v < count ? v : -1);

/**
 * The review panel from the synced `reviewing` ({} while it is closed); junk reads as closed.
 * @returns {Review}
 */
export function decodeReview(value) {
  const raw = obj(value);
  const count = Math.max(0, Math.trunc(num(raw.count)));
  const index = indexIn(raw.index, Math.max(count, 1));
  const mistakes = (Array.isArray(raw.mistakes) ? raw.mistakes : []).filter((i) => indexIn(i, count) >= 0);
  return {
    open: index >= 0,
    index: Math.max(index, 0),
    count,
    summary: str(raw.summary),
    metrics: str(raw.metrics),
    mistakes,
    move: obj(raw.move),
  };
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
    review: decodeReview(get("reviewing")),
    link: { mode: str(obj(get("shared_link")).mode), url: str(obj(get("shared_link")).url) },
    awaitsLink: get("awaits_link") === true,
    gameMetrics: str(obj(get("game_metrics")).text),
    raw: { cells: get("cells"), version: Math.trunc(num(get("cells_version"))), probabilities: get("probabilities"), marks: get("marks"), size },
  };
}

/** The board's view character at flat index `i`. */
export const cellAt = (model, i) => model.cells[i];
export const isLive = (model) => model.viewing < 0;
/** The history index on screen: the board being looked at, or the live game's. */
export const shownIndex = (model) => (model.viewing < 0 ? model.historyLength - 1 : model.viewing);

// --- the requests the browser writes ---------------------------------------------------------------------

/** The most unanswered requests the browser keeps in the `requests` traitlet (Python accepts 64). */
export const MAX_PENDING = 32;

/**
 * @typedef {{action: string} & Record<string, string | number>} Request  a request: its action and fields
 * @typedef {{id: number} & Request} Numbered
 */

/**
 * The requests traitlet after adding `request`: the unanswered ones (id above `handled`) plus the new one,
 * with the next id. Resending the unanswered ones is harmless (Python skips ids it has answered), and it
 * makes the channel safe against ipywidgets merging two quick state updates into one.
 * @param {Numbered[] | undefined} requests the current value of the traitlet
 * @param {number} handled the id of the last request Python answered
 * @param {number} lastId the last id this view used (ids never go back, even across views)
 * @param {Request} request
 * @returns {{requests: Numbered[], id: number}}
 */
export function withRequest(requests, handled, lastId, request) {
  const pending = (Array.isArray(requests) ? requests : []).filter((r) => r && Number(r.id) > handled);
  // Plain numbers, exact up to 2**53 (Python refuses ids past it): a 32-bit `| 0` wrapped at 2**31.
  const floor = Math.max(Number(handled) || 0, Number(lastId) || 0);
  const top = pending.reduce((m, r) => Math.max(m, Number(r.id) || 0), floor);
  const id = top + 1;
  return { requests: [...pending, { id, ...request }].slice(-MAX_PENDING), id };
}

/** Whether to ask Python for the whole board (the `resync` request): a patch was missed, and not asked for yet. */
export const resyncWanted = (model, asked) => model.missing > model.version && asked < model.missing;
