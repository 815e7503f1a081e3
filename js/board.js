// The board in the DOM: only the rows and columns of the window (js/grid.js: gridWindow) exist, one
// absolutely placed `.ipyms-row` per drawn row inside a `.ipyms-board` as big as the whole board, so the
// scroll bars and the ARIA counts are the board's. In a row, the cells come in `.ipyms-block`s of BLOCK
// columns (js/grid.js: columnBlocks), each placed at its first column. Rows and blocks are keyed: a scroll
// adds and drops whole rows and blocks and never moves a cell that stays, so the browser lays out and paints
// only the new ones; a move repaints only the drawn cells whose character, decorations or overlay changed.
// (Drawing the cells that come in with the elements of those that left was tried: every cell then has a JS
// wrapper, and the major collections that a long scroll triggers took twice as long.)
import { BLOCK, cellHtml, cellInner, cellParts, columnBlocks, minimapPixels, minimapViewport } from "./grid.js";
import { labelTexts } from "./features.js";
import { overlayAt } from "./helpers.js";
import { setAttr, setProp, setText } from "./dom.js";

/**
 * @typedef {ReturnType<typeof import("./view.js").gridView>} GridSpec
 * @typedef {{el: HTMLElement, c0: number, c1: number}} DrawnRow  a row's element and its drawn columns c0..c1-1
 */

/** Write one cell's parts into its element (the same parts cellHtml builds a new cell from). */
function paintCell(el, parts) {
  if (el.className !== parts.cls) el.className = parts.cls;
  if (el.dataset.state !== parts.state) el.dataset.state = parts.state;
  if (el.textContent !== parts.text) el.innerHTML = cellInner(parts.text);
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

/** The HTML of columns from..to-1 of row `r`, as one block (the cells of a row are built as one string: much
 * faster than one node each). */
function blockHtml(b, g, cells, r, [k, from, to]) {
  let html = `<div class="ipyms-block" role="none" data-block="${k}" style="left:${from * b.pitch}px">`;
  for (let c = from; c < to; c++) html += cellHtml(r, c, partsOf(g, cells, r, c), cellId(b, r * g.cols + c));
  return `${html}</div>`;
}

const blocksHtml = (b, g, cells, r, blocks) => blocks.map((block) => blockHtml(b, g, cells, r, block)).join("");

/** A new drawn row `r` of the window's columns, as HTML. */
function rowHtml(b, g, cells, r) {
  const { c0, c1 } = g.window;
  return (
    `<div class="ipyms-row" role="row" aria-rowindex="${r + 1}" data-row="${r}" style="top:${r * b.pitch}px">` +
    `${blocksHtml(b, g, cells, r, columnBlocks(c0, c1))}</div>`
  );
}

/** Add rows `fresh` to the board, with one piece of HTML. */
function addRows(b, g, cells, fresh) {
  if (!fresh.length) return;
  const board = b.els.board;
  board.insertAdjacentHTML("beforeend", fresh.map((r) => rowHtml(b, g, cells, r)).join(""));
  const kids = board.children;
  const first = kids.length - fresh.length;
  fresh.forEach((r, n) => b.rows.set(r, { el: /** @type {HTMLElement} */ (kids[first + n]), c0: g.window.c0, c1: g.window.c1 }));
}

const sameBlock = (x, y) => x[0] === y[0] && x[1] === y[1] && x[2] === y[2];

/**
 * Fit drawn row `r` to the window's columns: the blocks that left (or changed, at an edge) go, the blocks that
 * stay are not touched, and the new ones, to put at either end, are added to `pending` (placePending builds
 * them all from one piece of HTML). True if the row was built whole.
 * @param {{row: DrawnRow, r: number, block: [number, number, number], next: Element | null}[]} pending
 */
function fitRow(b, g, cells, r, row, pending) {
  const { c0, c1 } = g.window;
  if (row.c0 === c0 && row.c1 === c1) return false;
  const before = columnBlocks(row.c0, row.c1);
  const after = columnBlocks(c0, c1);
  const kept = new Set(after.filter((x) => before.some((y) => sameBlock(x, y))).map(([k]) => k));
  [row.c0, row.c1] = [c0, c1];
  if (!kept.size) {
    row.el.innerHTML = blocksHtml(b, g, cells, r, after);
    return true;
  }
  const kids = [...row.el.children];
  before.forEach(([k], n) => !kept.has(k) && kids[n].remove());
  const first = Math.min(...kept);
  const firstEl = kids[before.findIndex(([k]) => k === first)];
  for (const block of after) if (!kept.has(block[0])) pending.push({ row, r, block, next: block[0] < first ? firstEl : null });
  return false;
}

/** The new blocks of the fitted rows, parsed from one piece of HTML (one parse, not one per row), each put
 * into its row before its `next` block (null: at the end). */
function placePending(b, g, cells, pending) {
  if (!pending.length) return;
  const scratch = b.els.board.ownerDocument.createElement("div");
  scratch.innerHTML = pending.map(({ r, block }) => blockHtml(b, g, cells, r, block)).join("");
  for (const { row, next } of pending) row.el.insertBefore(/** @type {Element} */ (scratch.firstElementChild), next);
}

/** The element of column `c` in drawn row `row`, if it is drawn. */
function cellIn(row, c) {
  if (c < row.c0 || c >= row.c1) return null;
  const k = Math.floor(c / BLOCK);
  const block = row.el.children[k - Math.floor(row.c0 / BLOCK)];
  return /** @type {HTMLElement | null} */ (block?.children[c - Math.max(row.c0, k * BLOCK)] ?? null);
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
  for (let c = row.c0; c < row.c1; c++) {
    const i = base + c;
    if (
      (changed && cells[i] !== shownCells[i]) ||
      (overlayChanged && overlayAt(shown.overlay, shownCells, i) !== overlayAt(g.overlay, cells, i)) ||
      (decorated && decorated.has(c))
    ) {
      const el = cellIn(row, c);
      if (el) paintCell(el, partsOf(g, cells, r, c));
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
 * Draw grid spec `g` of board `cells`: drop the rows that left the window, build the new ones (in one piece
 * of HTML), fit the others to the window's columns (their new blocks in one piece of HTML too) and repaint
 * what changed in them.
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
  const fresh = [];
  const fitted = [];
  const pending = [];
  for (let r = r0; r < r1; r++) {
    const row = b.rows.get(r);
    if (!row) fresh.push(r);
    else if (!fitRow(b, g, cells, r, row, pending)) fitted.push(r);
  }
  placePending(b, g, cells, pending);
  for (const r of fitted) repaintRow(b, g, cells, r, redo);
  addRows(b, g, cells, fresh);
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
  return row ? cellIn(row, i % b.shown.cols) : null;
}
