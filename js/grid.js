// The virtual grid, pure: which rows and columns to draw for a scroll position, what each drawn cell shows
// (classes, label, overlay), the highlights, and the minimap. No DOM: js/board.js writes what this computes.
import { cellClass, cellLabel, cellText, formatPercent, isOver, overlayText, pressedCells, probabilityColor, probabilityKind } from "./helpers.js";
import { cellsOf } from "./features.js";
import { longPressable } from "./input.js";

/** Rows and columns drawn beyond the visible area on each side, and the block the window snaps to. */
export const MARGIN = 4;
export const BLOCK = 8;
/** The visible area assumed before the first layout: small, since the first layout (before the first paint) gives the real one. */
const DEFAULT_VIEW = { width: 640, height: 480 };

/**
 * @typedef {{r0: number, r1: number, c0: number, c1: number}} Window  rows r0..r1-1, columns c0..c1-1
 * @typedef {import("./ui.js").Scroll} Scroll
 */

const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
const snapDown = (v) => Math.floor(v / BLOCK) * BLOCK;
const snapUp = (v) => Math.ceil(v / BLOCK) * BLOCK;

/**
 * The cells to draw: what the scroll area shows (in board pixels), plus MARGIN rows and columns around it,
 * snapped to blocks of BLOCK so that a small scroll changes nothing. Before the board's first frame
 * (`settled` false) only the cells in view: the margin, there for the next scroll, comes right after it.
 * @param {Scroll} scroll
 * @returns {Window}
 */
export function gridWindow(scroll, pitch, rows, cols, settled = true) {
  const width = scroll.width > 0 ? scroll.width : DEFAULT_VIEW.width;
  const height = scroll.height > 0 ? scroll.height : DEFAULT_VIEW.height;
  const top = Math.max(0, scroll.top);
  const left = Math.max(0, scroll.left);
  const margin = settled ? MARGIN : 0;
  const [down, up] = settled ? [snapDown, snapUp] : [(v) => v, (v) => v];
  return {
    r0: clamp(down(Math.floor(top / pitch) - margin), 0, rows),
    r1: clamp(up(Math.ceil((top + height) / pitch) + margin), 0, rows),
    c0: clamp(down(Math.floor(left / pitch) - margin), 0, cols),
    c1: clamp(up(Math.ceil((left + width) / pitch) + margin), 0, cols),
  };
}

/**
 * The column blocks of a drawn row: [block index, first column, end column] for each block of BLOCK columns
 * that window columns c0..c1-1 touch (a block at an edge of the window may be partly drawn).
 * @returns {[number, number, number][]}
 */
export function columnBlocks(c0, c1) {
  const out = [];
  for (let k = Math.floor(c0 / BLOCK); k * BLOCK < c1 && c0 < c1; k++) out.push([k, Math.max(c0, k * BLOCK), Math.min(c1, (k + 1) * BLOCK)]);
  return /** @type {[number, number, number][]} */ (out);
}

export const sameWindow = (a, b) => !!a && !!b && a.r0 === b.r0 && a.r1 === b.r1 && a.c0 === b.c0 && a.c1 === b.c1;
export const inWindow = (w, r, c) => r >= w.r0 && r < w.r1 && c >= w.c0 && c < w.c1;

/**
 * The scroll position that brings cell (r, c) fully into view (the least change), or null when it is. `inset`
 * is what the sticky labels cover of the scroll box, at its top and its left: a cell under them is hidden
 * (WCAG 2.4.11), so it is brought out from under them too.
 * @param {Scroll} scroll
 * @param {{top: number, left: number}} [inset]
 */
export function scrollToShow(scroll, pitch, r, c, inset = { top: 0, left: 0 }) {
  const fit = (start, size, skip, lo, hi) => (lo < start + skip ? lo - skip : hi > start + size ? hi - size : start);
  const top = scroll.height > 0 ? fit(scroll.top, scroll.height, inset.top, r * pitch, (r + 1) * pitch) : scroll.top;
  const left = scroll.width > 0 ? fit(scroll.left, scroll.width, inset.left, c * pitch, (c + 1) * pitch) : scroll.left;
  return top === scroll.top && left === scroll.left ? null : { top, left };
}

/** The move whose cells are highlighted: the reviewed move, the board looked back at, else the hint, else the
 * last move. */
function highlightedMove(model) {
  if (model.review.open) return { move: { row: model.review.move.row, col: model.review.move.col }, cls: "ipyms-reviewed-cell" };
  if (model.viewing >= 0) return { move: model.historyStep, cls: "ipyms-last-move" };
  if (model.hintMove.action) return { move: model.hintMove, cls: "ipyms-hint-cell" };
  return { move: model.lastMove, cls: "ipyms-last-move" };
}

/**
 * The extra classes of the few decorated cells: index -> classes, in a fixed order (cursor, highlights,
 * "?" marks, pressed, holding). The overlay is not here: it is looked up per drawn cell.
 * @param {import("./wire.js").Model} model
 * @param {import("./ui.js").UI} ui
 * @returns {Map<number, string[]>}
 */
export function decorations(model, ui) {
  const { rows, cols, cells } = model;
  const out = new Map();
  const add = (i, cls) => out.set(i, [...(out.get(i) || []), cls]);
  if (!cells) return out;
  const cursor = Math.min(ui.cursor.row, rows - 1) * cols + Math.min(ui.cursor.col, cols - 1);
  add(cursor, "ipyms-cursor");
  const { move, cls } = highlightedMove(model);
  for (const i of cellsOf(move.numbers, rows, cols)) add(i, "ipyms-why-number");
  for (const i of cellsOf(move.constrained, rows, cols)) add(i, "ipyms-why-cell");
  for (const i of cellsOf([[move.row, move.col]], rows, cols)) add(i, cls);
  const best = model.review.open && model.review.move.better ? model.review.move.best : null;
  if (best) for (const i of cellsOf([[best.row, best.col]], rows, cols)) add(i, "ipyms-better-cell");
  for (const i of model.marks) if (cells[i] === ".") add(i, "ipyms-marked");
  const press = ui.press;
  if (press && press.idx >= 0 && !press.fired && !isOver(model.status)) {
    const [r, c] = [Math.floor(press.idx / cols), press.idx % cols];
    for (const [pr, pc] of pressedCells(r, c, cells, rows, cols, press.chording)) add(pr * cols + pc, "ipyms-pressed");
    if (press.kind === "touch" && longPressable(cells[press.idx], ui.flagMode)) add(press.idx, "ipyms-holding");
  }
  return out;
}

/**
 * What one drawn cell shows.
 * @param {number} r
 * @param {number} c
 * @param {string} ch its view character
 * @param {string[] | undefined} extra its decorations
 * @param {number | undefined} p its mine probability, while the overlay is on
 */
export function cellParts(r, c, ch, extra, p) {
  const marked = ch === "." && !!extra && extra.includes("ipyms-marked");
  const classes = [cellClass(ch)];
  if (extra && extra[0] === "ipyms-cursor") classes.push("ipyms-cursor");
  if (p !== undefined) classes.push("ipyms-prob");
  if (extra) classes.push(...extra.filter((x) => x !== "ipyms-cursor"));
  const prob =
    p === undefined
      ? null
      : {
          probability: String(p),
          pct: overlayText(p),
          kind: probabilityKind(p),
          heat: probabilityColor(p, "light"),
          heatDark: probabilityColor(p, "dark"),
          title: `mine probability ${formatPercent(p)}`,
        };
  return { cls: classes.join(" "), state: ch, text: marked ? "?" : cellText(ch), label: cellLabel(r, c, ch, p), prob };
}

const escapeAttr = (s) => String(s).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

/** What a cell shows inside it: its number (or "?" mark), hidden from the accessibility tree, so that a screen
 * reader reads the cell's name ("row 1, column 4: 2"), not its text ("2"): Orca reads the text when there is
 * one (issue 55). */
export const cellInner = (text) => (text ? `<span aria-hidden="true">${text}</span>` : "");

/** The ARIA of a cell's place, besides its name: the 1-based aria-colindex that ARIA requires, and index texts
 * of a space, so that a screen reader says nothing in place of that 1-based index (Orca says "{col}{row}" of
 * the texts, else "row 2", "column 5"): the one numbering heard is the name's, 0-based (docs/accessibility.md). */
export const CELL_PLACE = 'aria-colindextext=" " aria-rowindextext=" "';

/** A drawn cell as HTML (the cells of a row are built as one string: much faster than one node each). Cells
 * can take focus (tabindex -1) but are never a tab stop: a screen reader that leaves browse mode on a cell
 * focuses it, and the widget makes it the cursor (issue 55). */
export function cellHtml(r, c, parts, id) {
  const prob = parts.prob
    ? ` data-probability="${parts.prob.probability}" data-pct="${parts.prob.pct}" data-prob="${parts.prob.kind}"` +
      ` title="${escapeAttr(parts.prob.title)}" style="--ipyms-heat:${parts.prob.heat};--ipyms-heat-dark:${parts.prob.heatDark}"`
    : "";
  return (
    `<div class="${parts.cls}" role="gridcell" id="${id}" tabindex="-1" aria-colindex="${c + 1}" ${CELL_PLACE}` +
    ` data-row="${r}" data-col="${c}" data-state="${escapeAttr(parts.state)}" aria-label="${escapeAttr(parts.label)}"${prob}>` +
    `${cellInner(parts.text)}</div>`
  );
}

/** The minimap's colours (RGBA) for each view character: covered, flagged, revealed, mines. */
const MINIMAP_COLOURS = {
  covered: [150, 165, 185, 255],
  flag: [229, 50, 45, 255],
  open: [236, 240, 245, 255],
  mine: [20, 20, 20, 255],
};

function minimapColour(ch) {
  if (ch === ".") return MINIMAP_COLOURS.covered;
  if (ch === "f" || ch === "F" || ch === "x") return MINIMAP_COLOURS.flag;
  if (ch === "*" || ch === "X") return MINIMAP_COLOURS.mine;
  return MINIMAP_COLOURS.open;
}

/** The minimap's size in pixels for a board: at most `max` on its longer side, the board's proportions. */
export function minimapSize(rows, cols, max = 160) {
  const scale = Math.min(1, max / Math.max(rows, cols));
  return { width: Math.max(1, Math.round(cols * scale)), height: Math.max(1, Math.round(rows * scale)) };
}

/** The minimap's pixels (RGBA): each pixel shows the cell at its centre (a sample, not an average). */
export function minimapPixels(cells, rows, cols, width, height) {
  const out = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    const r = Math.min(rows - 1, Math.floor(((y + 0.5) * rows) / height));
    for (let x = 0; x < width; x++) {
      const c = Math.min(cols - 1, Math.floor(((x + 0.5) * cols) / width));
      out.set(minimapColour(cells[r * cols + c]), (y * width + x) * 4);
    }
  }
  return out;
}

/** Where the drawn area lies on the minimap, in minimap pixels. */
export function minimapViewport(scroll, pitch, rows, cols, width, height) {
  const sx = width / (cols * pitch);
  const sy = height / (rows * pitch);
  return {
    x: scroll.left * sx,
    y: scroll.top * sy,
    w: Math.max(2, (scroll.width || DEFAULT_VIEW.width) * sx),
    h: Math.max(2, (scroll.height || DEFAULT_VIEW.height) * sy),
  };
}

/** The scroll position that centres the view on minimap pixel (x, y). */
export function minimapTarget(x, y, scroll, pitch, rows, cols, width, height) {
  return {
    top: Math.max(0, (y / height) * rows * pitch - (scroll.height || 0) / 2),
    left: Math.max(0, (x / width) * cols * pitch - (scroll.width || 0) / 2),
  };
}

/** "rows 120–160 of 2000 · columns 300–380 of 2000": where the view is, for a board too big to see at once. */
export function positionText(scroll, pitch, rows, cols) {
  const first = (v) => Math.floor(Math.max(0, v) / pitch);
  const last = (v, n) => Math.min(n - 1, Math.ceil(v / pitch) - 1);
  const r0 = first(scroll.top);
  const c0 = first(scroll.left);
  const r1 = Math.max(r0, last(scroll.top + (scroll.height || DEFAULT_VIEW.height), rows));
  const c1 = Math.max(c0, last(scroll.left + (scroll.width || DEFAULT_VIEW.width), cols));
  return `rows ${r0}–${r1} of ${rows} · columns ${c0}–${c1} of ${cols}`;
}
