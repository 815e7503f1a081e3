// Pure helpers of the ipyminesweeper front end: no DOM, no model, testable with `node --test js/`.
// js/build.mjs inlines this file into src/ipyminesweeper/static/widget.js (the `export ` keywords are dropped).

/** The view alphabet (docs/architecture.md). */
export const VIEW_CHARS = ".f012345678*XFx";

/** Decode the synced state into a plain object; throws on an inconsistent `cells` string. */
export function decodeView(state) {
  const rows = state.rows | 0;
  const cols = state.cols | 0;
  const cells = String(state.cells ?? "");
  if (rows <= 0 || cols <= 0) throw new Error(`bad board shape ${rows}x${cols}`);
  if (cells.length !== rows * cols) {
    throw new Error(`cells has ${cells.length} characters, expected ${rows * cols}`);
  }
  for (let i = 0; i < cells.length; i++) {
    if (!VIEW_CHARS.includes(cells[i])) throw new Error(`unknown view character ${JSON.stringify(cells[i])}`);
  }
  return {
    rows,
    cols,
    cells,
    status: String(state.status ?? "ready"),
    minesLeft: Number(state.mines_left ?? 0),
    startedAt: Number(state.started_at ?? 0),
    endedAt: Number(state.ended_at ?? 0),
  };
}

/** Indices whose character differs between two view strings of the same length (all when lengths differ). */
export function changedIndices(before, after) {
  const out = [];
  if (before == null || before.length !== after.length) {
    for (let i = 0; i < after.length; i++) out.push(i);
    return out;
  }
  for (let i = 0; i < after.length; i++) if (before.charCodeAt(i) !== after.charCodeAt(i)) out.push(i);
  return out;
}

/** Flat index ↔ position. */
export const toIndex = (row, col, cols) => row * cols + col;
export const toPos = (index, cols) => [Math.floor(index / cols), index % cols];

/** CSS classes of a cell for one view character. */
export function cellClass(ch) {
  switch (ch) {
    case ".":
      return "ipyms-cell ipyms-covered";
    case "f":
      return "ipyms-cell ipyms-covered ipyms-flagged";
    case "*":
      return "ipyms-cell ipyms-revealed ipyms-mine";
    case "X":
      return "ipyms-cell ipyms-revealed ipyms-mine ipyms-exploded";
    case "F":
      return "ipyms-cell ipyms-covered ipyms-flagged ipyms-flagged-mine";
    case "x":
      return "ipyms-cell ipyms-covered ipyms-flagged ipyms-wrong-flag";
    default:
      if (ch >= "0" && ch <= "8") return ch === "0" ? "ipyms-cell ipyms-revealed ipyms-n0" : `ipyms-cell ipyms-revealed ipyms-n${ch}`;
      throw new Error(`unknown view character ${JSON.stringify(ch)}`);
  }
}

/** The text shown inside a cell (numbers only; flags and mines are drawn by CSS). */
export function cellText(ch) {
  return ch >= "1" && ch <= "8" ? ch : "";
}

/** What a cell is, in words (for aria-label). */
export function describeCell(ch) {
  switch (ch) {
    case ".":
      return "covered";
    case "f":
      return "flagged";
    case "0":
      return "empty";
    case "1":
      return "1 adjacent mine";
    case "*":
      return "mine";
    case "X":
      return "exploded mine";
    case "F":
      return "flagged mine";
    case "x":
      return "wrong flag";
    default:
      if (ch >= "2" && ch <= "8") return `${ch} adjacent mines`;
      throw new Error(`unknown view character ${JSON.stringify(ch)}`);
  }
}

/** A cell in a word: its number ("2"), or what it is ("empty", "covered", "flagged", ...). */
export const cellWord = (ch) => (isNumber(ch) ? ch : describeCell(ch));

/** Spoken label of a cell, in the board's coordinates (0-based, as the labels and the reasons' "(3,4)"):
 * "row 3, column 4: covered", "row 3, column 4: 2". */
export function cellLabel(row, col, ch, probability) {
  let label = `row ${row}, column ${col}: ${cellWord(ch)}`;
  if (probability != null && Number.isFinite(probability)) label += `, ${formatPercent(probability)} mine probability`;
  return label;
}

/** LED counter: at least three digits ("040", "-05"), wider for bigger values ("1500", "-120"). */
export function formatCounter(n) {
  n = Math.trunc(Number(n) || 0);
  if (n < 0) return "-" + String(Math.min(-n, 99999)).padStart(2, "0");
  return String(Math.min(n, 999999)).padStart(3, "0");
}

/** Whole seconds shown by the timer, from epoch-ms start/end (0 = unset) and the current time. */
export function elapsedSeconds(startedAt, endedAt, now) {
  if (!startedAt) return 0;
  const end = endedAt || now;
  return Math.max(0, Math.floor((end - startedAt) / 1000));
}

/** Face shown on the button. */
export function faceFor(status, pressed) {
  if (status === "won") return "won";
  if (status === "lost") return "lost";
  return pressed ? "pressed" : "smile";
}

/** Status line under the board. */
/**
 * The status line. At the end of a game Python's `summary` ("won in 41 s (assisted: 2 hints)") says how
 * it went, assistance included; `seconds` is the fallback when a saved page has no summary.
 */
export function statusMessage(status, seconds, summary = "") {
  if (status === "won") return `You ${summary || `won in ${seconds} s`}!`;
  if (status === "lost") return `Boom! You ${summary || "lost"}. Press the face (or N) for a new game.`;
  if (status === "ready") return "Click any cell to start.";
  return "";
}

export const isOver = (status) => status === "won" || status === "lost";
export const isCovered = (ch) => ch === "." || ch === "f";
export const isNumber = (ch) => ch >= "1" && ch <= "8";

/**
 * Keyboard map. Returns null for keys the widget does not handle.
 * {type: "move", dr, dc} | {type: "home"} | {type: "end"} | {type: "first"} | {type: "last"} | {type: "page", dir}
 * | {type: "action", action}
 * where action is reveal | flag | chord | new_game | undo | step | hint | toggle_play | flag_mode |
 * history_back | history_forward | help | escape | copy | around | status | read_row | read_column | next_number |
 * next_safe | review | next_mistake | link.
 */
export function keyOf(event) {
  // Ctrl+C (or Cmd+C) copies the board; Ctrl+Shift+C is the host's (JupyterLab's command palette)
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && (event.key || "").toLowerCase() === "c") {
    return { type: "action", action: "copy" };
  }
  const key = event.key || "";
  // Ctrl+Home and Ctrl+End: the first and the last cell of the board (the APG grid's keys)
  if (event.ctrlKey && !event.altKey && !event.metaKey && !event.shiftKey && Object.hasOwn(CTRL_MOVES, key)) return CTRL_MOVES[key];
  if (event.ctrlKey || event.altKey || event.metaKey) return null;
  if (Object.hasOwn(MOVES, key)) return MOVES[key];
  const action = [key, key.toLowerCase()].map((k) => (Object.hasOwn(ACTIONS, k) ? ACTIONS[k] : null)).find(Boolean);
  return action ? { type: "action", action } : null;
}

/** The cursor keys, and the keys of the board's actions (letters in either case). */
const MOVES = {
  ArrowUp: { type: "move", dr: -1, dc: 0 },
  ArrowDown: { type: "move", dr: 1, dc: 0 },
  ArrowLeft: { type: "move", dr: 0, dc: -1 },
  ArrowRight: { type: "move", dr: 0, dc: 1 },
  Home: { type: "home" },
  End: { type: "end" },
  PageUp: { type: "page", dir: -1 },
  PageDown: { type: "page", dir: 1 },
};
const CTRL_MOVES = { Home: { type: "first" }, End: { type: "last" } };
const ACTIONS = {
  " ": "reveal", Spacebar: "reveal", Enter: "reveal", "[": "history_back", "]": "history_forward", "?": "help",
  Escape: "escape", f: "flag", c: "chord", n: "new_game", u: "undo", z: "undo", h: "hint", s: "step",
  p: "toggle_play", g: "flag_mode", a: "around", t: "status", r: "read_row", v: "read_column", j: "next_number",
  k: "next_safe", e: "review", x: "next_mistake", l: "link",
};

/** Move the cursor, clamped to the board; PageUp/PageDown move `page` rows. */
export function moveCursor(cursor, move, rows, cols, page = 1) {
  const clamp = (v, hi) => Math.max(0, Math.min(hi - 1, v));
  if (move.type === "home") return [cursor[0], 0];
  if (move.type === "end") return [cursor[0], cols - 1];
  if (move.type === "first") return [0, 0];
  if (move.type === "last") return [rows - 1, cols - 1];
  if (move.type === "page") return [clamp(cursor[0] + move.dir * page, rows), cursor[1]];
  return [clamp(cursor[0] + move.dr, rows), clamp(cursor[1] + move.dc, cols)];
}

/** The message a cell action sends; reveal on a revealed number becomes a chord (like a click). */
export function cellMessage(action, row, col, ch) {
  if (action === "reveal" && isNumber(ch)) action = "chord";
  return { action, row, col };
}

/** Neighbour positions of (row, col) inside the board. */
export function neighbours(row, col, rows, cols) {
  const out = [];
  for (let dr = -1; dr <= 1; dr++) {
    for (let dc = -1; dc <= 1; dc++) {
      if (!dr && !dc) continue;
      const r = row + dr;
      const c = col + dc;
      if (r >= 0 && r < rows && c >= 0 && c < cols) out.push([r, c]);
    }
  }
  return out;
}

/** Cells shown pressed while the mouse is down on (row, col): the cell itself, or for a chord its covered non-flagged neighbours. */
export function pressedCells(row, col, cells, rows, cols, chording) {
  const ch = cells[row * cols + col];
  if (chording || isNumber(ch)) {
    const out = neighbours(row, col, rows, cols).filter(([r, c]) => cells[r * cols + c] === ".");
    if (ch === ".") out.push([row, col]);
    return out;
  }
  return ch === "." ? [[row, col]] : [];
}

/** Probabilities closer than this to 0 or 1 count as certain (the solver's exact values are 0 and 1). */
const CERTAIN_EPS = 1e-9;

/** What the overlay shows for a probability: "safe" (certainly no mine), "mine" (certainly a mine) or "guess". */
export function probabilityKind(p) {
  p = Number(p);
  if (!(p > CERTAIN_EPS)) return "safe"; // also NaN: decodeProbabilities drops junk before this
  if (p >= 1 - CERTAIN_EPS) return "mine";
  return "guess";
}

/** Overlay palettes (opaque sRGB). Certain cells get their own colours, well apart from the guess ramp;
   guesses run pale yellow → amber → orange → red, so a common ~18% is plainly yellow, never green.
   The dark palette is dimmer and less saturated so a big overlay does not glare on a dark page. */
export const PROBABILITY_PALETTES = {
  light: {
    safe: "#1fa67a",
    mine: "#d7302a",
    ramp: ["#fff3b0", "#ffd25e", "#ff9f40", "#f2603a"],
  },
  dark: {
    safe: "#2b7a62",
    mine: "#9e3431",
    ramp: ["#6e6640", "#836a30", "#8c5230", "#8f3f33"],
  },
};

function hexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function rgbToHex(rgb) {
  return "#" + rgb.map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
}

/** Overlay colour of a mine probability as "#rrggbb": the certain colours for 0 and 1, else the guess ramp
   (linear in p between evenly spaced stops). `theme` is "light" (default) or "dark". */
export function probabilityColor(p, theme = "light") {
  const pal = PROBABILITY_PALETTES[theme] || PROBABILITY_PALETTES.light;
  p = Math.max(0, Math.min(1, Number(p) || 0));
  const kind = probabilityKind(p);
  if (kind !== "guess") return pal[kind];
  const stops = pal.ramp.map(hexToRgb);
  const x = p * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const t = x - i;
  return rgbToHex(stops[i].map((a, k) => a + (stops[i + 1][k] - a) * t));
}

/** Short overlay text of a probability: whole percent without the sign ("0", "19", "100"); the CSS adds the "%"
   (smaller) and shows certain cells (0 and 100) as a check / mine glyph instead. */
export function overlayText(p) {
  const v = Math.max(0, Math.min(1, Number(p))) * 100;
  if (v > 0 && v < 1) return "<1";
  if (v > 99 && v < 100) return "99";
  return String(Math.round(v));
}

export function formatPercent(p) {
  const v = Math.max(0, Math.min(1, Number(p))) * 100;
  if (v > 0 && v < 1) return "<1%";
  if (v < 100 && v > 99) return ">99%";
  return `${Math.round(v)}%`;
}

/**
 * The probability overlay: P(mine) of the cells listed one by one (those next to a number), and the one
 * probability every other covered or flagged cell shares (no number tells them apart), if any.
 * @typedef {{cells: Map<number, number>, elsewhere: number | undefined}} Overlay
 */

/** @type {Overlay} */
export const NO_OVERLAY = Object.freeze({ cells: new Map(), elsewhere: undefined });

const isProbability = (v) => typeof v === "number" && v >= 0 && v <= 1;

/** Decode the synced `probabilities` dict (flat index string → p, and "*" → the others' p), dropping junk.
 * @returns {Overlay} */
export function decodeProbabilities(obj, size) {
  const cells = new Map();
  if (!obj || typeof obj !== "object") return { cells, elsewhere: undefined };
  for (const [k, v] of Object.entries(obj)) {
    const i = Number(k);
    if (Number.isInteger(i) && i >= 0 && i < size && isProbability(v)) cells.set(i, v);
  }
  return { cells, elsewhere: isProbability(obj["*"]) ? obj["*"] : undefined };
}

/** What the overlay shows on cell `i` of the view `cells`: its listed probability, else the others' one
 * if it is covered or flagged, else nothing. */
export function overlayAt(overlay, cells, i) {
  const listed = overlay.cells.get(i);
  if (listed !== undefined) return listed;
  const ch = cells[i];
  return ch === "." || ch === "f" ? overlay.elsewhere : undefined;
}

/** Speed slider (0 slow … 100 fast) ↔ delay in seconds between autoplay moves (log scale 2 s … 0.01 s). */
const SLOW = 2;
const FAST = 0.01;
export function speedToDelay(speed) {
  const t = Math.max(0, Math.min(100, Number(speed))) / 100;
  return Math.round(SLOW * Math.pow(FAST / SLOW, t) * 1000) / 1000;
}
/** The speed slider's value in words: the delay between two autoplayer moves ("0.25 s per move"). */
export function speedText(delay) {
  const d = Number(delay);
  if (!Number.isFinite(d) || d < 0) return "";
  const text = d >= 1 ? d.toFixed(1) : d >= 0.1 ? d.toFixed(2) : d.toFixed(3);
  return `${text.replace(/\.?0+$/, "") || "0"} s per move`;
}
export function delayToSpeed(delay) {
  const d = Math.max(FAST, Math.min(SLOW, Number(delay) || SLOW));
  return Math.round((100 * Math.log(d / SLOW)) / Math.log(FAST / SLOW)) || 0; // never -0
}
