// The board in the DOM: only the rows and columns of the window (js/grid.js: gridWindow) exist, one
// absolutely placed `.ipyms-row` per drawn row inside a `.ipyms-board` as big as the whole board, so the
// scroll bars and the ARIA counts are the board's. Rows are keyed: a scroll adds and removes whole rows;
// a move repaints only the drawn cells whose character, decorations or overlay value changed.
import { cellHtml, cellParts, minimapPixels, minimapViewport } from "./grid.js";
import { labelTexts } from "./features.js";
import { overlayAt } from "./helpers.js";
import { setAttr, setProp, setText } from "./dom.js";

/**
 * @typedef {ReturnType<typeof import("./view.js").gridView>} GridSpec
 * @typedef {{el: HTMLElement, c0: number, c1: number}} DrawnRow
 */

/** Write one cell's parts into its element (the same parts cellHtml builds a new cell from). */
function paintCell(el, parts) {
  if (el.className !== parts.cls) el.className = parts.cls;
  if (el.dataset.state !== parts.state) el.dataset.state = parts.state;
  if (el.textContent !== parts.text) el.textContent = parts.text;
  setAttr(el, "aria-label", parts.label);
  const p = parts.prob;
  setAttr(el, "data-probability", p ? p.probability : null);
  setAttr(el, "data-pct", p ? p.pct : null);
  setAttr(el, "data-prob", p ? p.kind : null);
  setAttr(el, "title", p ? p.title : null);
  setAttr(el, "style", p ? `--ipyms-heat:${p.heat};--ipyms-heat-dark:${p.heatDark}` : null);
}

/**
 * The board renderer's state for one view. `uid` prefixes the cells' ids (the root's aria-activedescendant).
 * @param {import("./dom.js").Elements} els
 * @param {string} uid
 */
export function createBoard(els, uid) {
  return {
    els,
    uid,
    /** @type {Map<number, DrawnRow>} */ rows: new Map(),
    shape: "",
    pitch: 0,
    /** @type {GridSpec | null} */ shown: null,
    shownCells: "",
    /** @type {ImageData | null} */ minimapImage: null,
    minimapCells: "",
  };
}

/** @typedef {ReturnType<typeof createBoard>} Board */

export const cellId = (b, i) => `${b.uid}-${i}`;

function partsOf(g, cells, r, c) {
  const i = r * g.cols + c;
  return cellParts(r, c, cells[i], g.decorations.get(i), overlayAt(g.overlay, cells, i));
}

function rowInner(b, g, cells, r, c0, c1) {
  let html = "";
  for (let c = c0; c < c1; c++) html += cellHtml(r, c, partsOf(g, cells, r, c), cellId(b, r * g.cols + c));
  return html;
}

/** A new drawn row for row `r`, added to the board. */
function newRow(b, r) {
  const el = document.createElement("div");
  el.className = "ipyms-row";
  el.setAttribute("role", "row");
  el.setAttribute("aria-rowindex", String(r + 1));
  el.dataset.row = String(r);
  b.els.board.appendChild(el);
  return { el, c0: 0, c1: 0 };
}

/** Fit drawn row `row` to columns c0..c1: a scroll sideways drops the cells that left at one end and adds the
 * new ones at the other (the cells still in view are kept as they are). */
function shiftColumns(b, g, cells, r, row, c0, c1) {
  const el = row.el;
  for (let c = row.c0; c < Math.min(c0, row.c1); c++) el.firstElementChild?.remove();
  for (let c = Math.max(c1, row.c0); c < row.c1; c++) el.lastElementChild?.remove();
  if (c0 < row.c0) el.insertAdjacentHTML("afterbegin", rowInner(b, g, cells, r, c0, Math.min(row.c0, c1)));
  if (c1 > row.c1) el.insertAdjacentHTML("beforeend", rowInner(b, g, cells, r, Math.max(row.c1, c0), c1));
}

/** The drawn row `r` for the window's columns. True if it was built whole (nothing left to repaint). */
function drawRow(b, g, cells, r) {
  const { c0, c1 } = g.window;
  let row = b.rows.get(r);
  if (row && row.c0 === c0 && row.c1 === c1) return false;
  const whole = !row || c1 <= row.c0 || c0 >= row.c1;
  if (!row) {
    row = newRow(b, r);
    b.rows.set(r, row);
  }
  if (whole) row.el.innerHTML = rowInner(b, g, cells, r, c0, c1);
  else shiftColumns(b, g, cells, r, row, c0, c1);
  row.c0 = c0;
  row.c1 = c1;
  row.el.style.top = `${r * b.pitch}px`;
  row.el.style.left = `${c0 * b.pitch}px`;
  return whole;
}

/** A new shape or cell size: the board's size, its ARIA counts, and no drawn rows. */
function reset(b, g) {
  const board = b.els.board;
  b.shape = `${g.rows}x${g.cols}`;
  b.pitch = g.pitch;
  b.rows.clear();
  board.replaceChildren();
  const gap = g.pitch - g.size;
  board.style.width = `${g.cols * g.pitch - gap}px`;
  board.style.height = `${g.rows * g.pitch - gap}px`;
  setAttr(board, "aria-rowcount", String(g.rows));
  setAttr(board, "aria-colcount", String(g.cols));
  board.dataset.rows = String(g.rows);
  board.dataset.cols = String(g.cols);
  b.shown = null;
}

/** Repaint the cells of drawn row `r` whose character, decorations (`redo`) or overlay value changed. */
function repaintRow(b, g, cells, r, redo) {
  const row = /** @type {DrawnRow} */ (b.rows.get(r));
  const { shown, shownCells } = b;
  const base = r * g.cols;
  const n = row.c1 - row.c0;
  const changed = shownCells.length !== cells.length || cells.substr(base + row.c0, n) !== shownCells.substr(base + row.c0, n);
  const overlayChanged = !!shown && shown.overlay !== g.overlay;
  const decorated = redo.get(r);
  if (!changed && !overlayChanged && !decorated) return;
  const kids = row.el.children;
  for (let c = row.c0; c < row.c1; c++) {
    const i = base + c;
    if (
      (changed && cells[i] !== shownCells[i]) ||
      (overlayChanged && overlayAt(shown.overlay, shownCells, i) !== overlayAt(g.overlay, cells, i)) ||
      (decorated && decorated.has(c))
    ) {
      paintCell(kids[c - row.c0], partsOf(g, cells, r, c));
    }
  }
}

/** Cells whose decorations changed since the last render, by row: row -> columns. */
function decorationChanges(b, g) {
  const out = new Map();
  const before = b.shown ? b.shown.decorations : new Map();
  const key = (m, i) => (m.get(i) || []).join(" ");
  for (const i of new Set([...before.keys(), ...g.decorations.keys()])) {
    if (key(before, i) === key(g.decorations, i)) continue;
    const r = Math.floor(i / g.cols);
    if (!out.has(r)) out.set(r, new Set());
    out.get(r).add(i % g.cols);
  }
  return out;
}

/** Row and column labels for the drawn window (only while labels are on). */
function drawLabels(b, g, labelled) {
  const { colLabels, rowLabels } = b.els;
  const { r0, r1, c0, c1 } = g.window;
  const key = labelled ? `${r0},${r1},${c0},${c1},${b.pitch}` : "";
  if (colLabels.dataset.key === key) return;
  colLabels.dataset.key = key;
  const spans = (texts, from) => texts.slice(from).map((t) => `<span>${t}</span>`).join("");
  colLabels.innerHTML = labelled ? `<div class="ipyms-label-strip" style="left:${c0 * b.pitch}px">${spans(labelTexts(c1), c0)}</div>` : "";
  rowLabels.innerHTML = labelled ? `<div class="ipyms-label-strip" style="top:${r0 * b.pitch}px">${spans(labelTexts(r1), r0)}</div>` : "";
  colLabels.style.width = `${g.cols * b.pitch}px`;
  rowLabels.style.height = `${g.rows * b.pitch}px`;
}

/** The minimap and the position line, for a board bigger than what is drawn. */
function drawMinimap(b, g, cells, scroll) {
  const { minimap, minimapCanvas: canvas, position } = b.els;
  setProp(minimap, "hidden", !g.minimap);
  if (!g.minimap) return;
  const { width, height } = g.minimap;
  if (canvas.width !== width || canvas.height !== height) {
    canvas.width = width;
    canvas.height = height;
    b.minimapCells = "";
  }
  const ctx = canvas.getContext("2d");
  if (!ctx) return;
  if (b.minimapCells !== cells || !b.minimapImage) {
    b.minimapImage = new ImageData(minimapPixels(cells, g.rows, g.cols, width, height), width, height);
    b.minimapCells = cells;
  }
  ctx.putImageData(b.minimapImage, 0, 0);
  const v = minimapViewport(scroll, b.pitch, g.rows, g.cols, width, height);
  ctx.strokeStyle = "#1976d2";
  ctx.lineWidth = 2;
  ctx.strokeRect(v.x + 1, v.y + 1, Math.min(width, v.w) - 2, Math.min(height, v.h) - 2);
  setText(position, g.minimap.position);
}

/**
 * Draw grid spec `g` of board `cells`: drop the rows that left the window, build the new ones, repaint
 * what changed in the others.
 * @param {Board} b
 * @param {GridSpec} g
 * @param {string} cells
 * @param {{labelled: boolean, scroll: import("./ui.js").Scroll}} opts
 */
export function renderBoard(b, g, cells, opts) {
  if (`${g.rows}x${g.cols}` !== b.shape || g.pitch !== b.pitch) reset(b, g);
  const { r0, r1 } = g.window;
  for (const [r, row] of b.rows) {
    if (r < r0 || r >= r1) {
      row.el.remove();
      b.rows.delete(r);
    }
  }
  const redo = decorationChanges(b, g);
  for (let r = r0; r < r1; r++) if (!drawRow(b, g, cells, r)) repaintRow(b, g, cells, r, redo);
  b.shown = g;
  b.shownCells = cells;
  drawLabels(b, g, opts.labelled);
  drawMinimap(b, g, cells, opts.scroll);
}

/** The flat index of the cell an event target is in (-1: not a cell of this board). */
export function cellIndexOf(b, target) {
  const cell = target instanceof Element ? /** @type {HTMLElement | null} */ (target.closest(".ipyms-cell")) : null;
  if (!cell || !b.els.board.contains(cell) || !b.shown) return -1;
  return Number(cell.dataset.row) * b.shown.cols + Number(cell.dataset.col);
}

/** The element of cell `i`, if it is drawn. */
export function cellElement(b, i) {
  if (!b.shown) return null;
  const row = b.rows.get(Math.floor(i / b.shown.cols));
  const c = i % b.shown.cols;
  return row && c >= row.c0 && c < row.c1 ? /** @type {HTMLElement} */ (row.el.children[c - row.c0]) : null;
}
