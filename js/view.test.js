// view(model, ui) and the virtual grid's pure parts: what is on screen, derived from plain objects.
import { test } from "node:test";
import assert from "node:assert/strict";

import { view, gridView } from "./view.js";
import { timerOf } from "./input.js";
import { initialUi } from "./ui.js";
import { cellHtml, cellParts, columnBlocks, decorations, gridWindow, minimapPixels, minimapSize, positionText, scrollToShow } from "./grid.js";
import { modelOf } from "./testing.js";

test("a new game: counter, face, timer, the invitation, enabled controls", () => {
  const spec = view(modelOf(), initialUi());
  assert.deepEqual([spec.header.counter, spec.header.face, spec.header.timer], ["010", "smile", "000"]);
  assert.equal(spec.header.counterLabel, "10 mines left", "the LED's name: read when reached, never announced");
  assert.equal(view(modelOf({ mines_left: 1 }), initialUi()).header.counterLabel, "1 mine left");
  assert.equal(spec.header.message, "Click any cell to start.");
  assert.equal(spec.header.note, false);
  assert.deepEqual([spec.toolbar.step, spec.toolbar.hint, spec.toolbar.undo], [false, false, true]);
  assert.deepEqual(spec.toolbar.speed, { value: 39, text: "0.25 s per move", disabled: false });
  assert.equal(spec.root.status, "ready");
});

test("the timer runs while playing, and a snapshot shows its saved time without running", () => {
  const playing = modelOf({ status: "playing", started_at: 1000, elapsed: 7 });
  assert.deepEqual(timerOf(playing, { ...initialUi(), now: 43_500 }), { seconds: 42, running: true });
  const snapshot = { ...initialUi(), live: false, now: 999_999 };
  assert.deepEqual(timerOf(playing, snapshot), { seconds: 7, running: false });
  const spec = view(playing, snapshot);
  assert.equal(spec.header.note, true);
  assert.ok(spec.toolbar.step && spec.toolbar.speed.disabled && spec.panels.picker.disabled, "every control is off");
  assert.equal(view(modelOf(), snapshot).header.message, "", "a snapshot does not invite a click");
});

test("the face is pressed while a cell is held, and the end shows in the face and message", () => {
  const ui = { ...initialUi(), press: { kind: "mouse", button: 0, idx: 3, chording: false, x: 0, y: 0, fired: false, id: 1 } };
  assert.equal(view(modelOf({ status: "playing" }), ui).header.face, "pressed");
  const won = view(modelOf({ status: "won", summary: "won in 12 s" }), initialUi());
  assert.deepEqual([won.header.face, won.header.message], ["won", "You won in 12 s!"]);
});

test("the history line: the game now while live, how the board was reached while looking back", () => {
  const live = view(modelOf({ history_length: 4, history_step: { text: "exact: reveal (1,1): a long reason" } }), initialUi());
  assert.equal(live.history.text, "Move 3 of 3: the game now");
  const back = view(modelOf({ history_length: 4, viewing: 1, history_step: { text: "you: reveal (4,4)" } }), initialUi());
  assert.equal(back.history.text, "Move 1 of 3: you: reveal (4,4)");
  assert.deepEqual([back.history.viewing, back.history.resume, back.toolbar.reason], ["1", false, ""]);
});

test("a small board is drawn whole; the overlay only while it is on and the game is not over", () => {
  const g = gridView(modelOf({ rows: 16, cols: 16 }), initialUi());
  assert.deepEqual(g.window, { r0: 0, r1: 16, c0: 0, c1: 16 });
  assert.equal(g.minimap, null);
  assert.equal(g.size, 28);
  const on = modelOf({ show_probabilities: true, probabilities: { 0: 0.5, 3: 1 }, status: "playing" });
  assert.deepEqual([...gridView(on, initialUi()).overlay.cells], [[0, 0.5], [3, 1]]);
  assert.equal(gridView(modelOf({ ...on.raw, show_probabilities: true, probabilities: { 0: 0.5 }, status: "lost" }), initialUi()).overlay.cells.size, 0);
});

test("a 2000x2000 board draws only a window around what is in view, with a minimap and a position", () => {
  const model = modelOf({ rows: 2000, cols: 2000, mines: 600_000, cell_size: 16 }); // zoomed out
  const ui = { ...initialUi(), width: 1200, scroll: { top: 17 * 1000, left: 17 * 500, width: 1200, height: 700 } };
  const g = gridView(model, ui);
  assert.equal(g.size, 16);
  assert.equal(g.pitch, 17, "16 px cells with a 1 px gap");
  const { r0, r1, c0, c1 } = g.window;
  assert.ok(r0 <= 1000 && r1 >= 1000 + 700 / 17 && c0 <= 500 && c1 >= 500 + 1200 / 17, JSON.stringify(g.window));
  assert.ok((r1 - r0) * (c1 - c0) < 12_000, "a few thousand cells, not four million");
  assert.deepEqual([g.minimap.width, g.minimap.height], [160, 160]);
  assert.equal(g.minimap.position, "rows 1000–1041 of 2000 · columns 500–570 of 2000");
});

test("the minimap is there or not from the first frame on: the first frame's window (no margin) does not decide it", () => {
  for (const [rows, cols] of [[28, 30], [30, 28], [40, 40], [60, 60], [16, 16]]) {
    const scroll = { top: 0, left: 0, width: 800, height: 675 };
    const first = gridView(modelOf({ rows, cols, mines: 10 }), { ...initialUi(), width: 800, scroll, settled: false });
    const later = gridView(modelOf({ rows, cols, mines: 10 }), { ...initialUi(), width: 800, scroll, settled: true });
    assert.equal(first.minimap === null, later.minimap === null, `${rows}x${cols}`);
  }
});

test("the window snaps to blocks, and the cursor is scrolled into view by the least change", () => {
  const a = gridWindow({ top: 1000, left: 0, width: 800, height: 600 }, 17, 2000, 2000);
  const b = gridWindow({ top: 1010, left: 3, width: 800, height: 600 }, 17, 2000, 2000);
  assert.deepEqual(a, b, "a small scroll redraws nothing");
  const scroll = { top: 170, left: 0, width: 340, height: 170 };
  assert.equal(scrollToShow(scroll, 17, 12, 3), null, "in view already");
  assert.deepEqual(scrollToShow(scroll, 17, 20, 3), { top: 21 * 17 - 170, left: 0 });
  assert.deepEqual(scrollToShow(scroll, 17, 2, 30), { top: 34, left: 31 * 17 - 340 });
});

test("the cursor is never left under the sticky labels (WCAG 2.4.11)", () => {
  // 24 px cells; the column labels cover the top 17 px of the scroll box, the row labels its left 35 px
  const inset = { top: 17, left: 35 };
  const scroll = { top: 24 * 10, left: 24 * 10, width: 480, height: 480 };
  assert.equal(scrollToShow(scroll, 24, 11, 12, inset), null, "below and right of the labels: in view");
  // row 10 starts at the box's top edge, under the column labels: scrolled down 17 px less
  assert.deepEqual(scrollToShow(scroll, 24, 10, 12, inset), { top: 24 * 10 - 17, left: 24 * 10 });
  assert.deepEqual(scrollToShow(scroll, 24, 11, 10, inset), { top: 24 * 10, left: 24 * 10 - 35 });
  // the far edges are not under anything
  assert.deepEqual(scrollToShow(scroll, 24, 30, 30, inset), { top: 31 * 24 - 480, left: 31 * 24 - 480 });
  // without labels, the edge itself
  assert.equal(scrollToShow(scroll, 24, 10, 10), null);
});

test("before its first frame the grid draws only the cells in view; then a margin, snapped to blocks", () => {
  const scroll = { top: 17 * 100 + 5, left: 17 * 40, width: 822, height: 750 };
  const first = gridWindow(scroll, 17, 1000, 1000, false);
  assert.deepEqual(first, { r0: 100, r1: 145, c0: 40, c1: 89 }, "rows 100.3..144.4 and columns 40..88.4 show");
  const settled = gridWindow(scroll, 17, 1000, 1000);
  assert.deepEqual(settled, { r0: 96, r1: 152, c0: 32, c1: 96 });
  assert.ok(settled.r0 <= first.r0 && settled.r1 >= first.r1 && settled.c0 <= first.c0 && settled.c1 >= first.c1);
  const model = modelOf({ rows: 1000, cols: 1000, mines: 150_000, cell_size: 16 }); // zoomed out: 17 px pitch
  const ui = { ...initialUi(), width: 824, scroll };
  assert.deepEqual(gridView(model, ui).window, first, "a new view is not settled");
  assert.deepEqual(gridView(model, { ...ui, settled: true }).window, settled);
});

test("a drawn row's columns come in blocks of 8: [block, first column, end column]", () => {
  assert.deepEqual(columnBlocks(0, 20), [[0, 0, 8], [1, 8, 16], [2, 16, 20]]);
  assert.deepEqual(columnBlocks(13, 17), [[1, 13, 16], [2, 16, 17]]);
  assert.deepEqual(columnBlocks(8, 16), [[1, 8, 16]]);
  assert.deepEqual(columnBlocks(5, 5), []);
});

test("decorations: the cursor, the move's cells, marks, the pressed cells and the holding cue", () => {
  const model = modelOf({
    status: "playing",
    cells: "1" + ".".repeat(80),
    hint_move: { action: "reveal", row: 1, col: 1, numbers: [[0, 0]], constrained: [[0, 1], [1, 0]] },
    marks: [2, 0],
  });
  const ui = { ...initialUi(), cursor: { row: 8, col: 8 }, press: { kind: "touch", button: 0, idx: 40, chording: false, x: 0, y: 0, fired: false, id: 1 } };
  const d = decorations(model, ui);
  assert.deepEqual(d.get(80), ["ipyms-cursor"]);
  assert.deepEqual(d.get(0), ["ipyms-why-number"], "a mark on a revealed cell is not drawn");
  assert.deepEqual(d.get(1), ["ipyms-why-cell"]);
  assert.deepEqual(d.get(10), ["ipyms-hint-cell"]);
  assert.deepEqual(d.get(2), ["ipyms-marked"]);
  assert.deepEqual(d.get(40), ["ipyms-pressed", "ipyms-holding"]);
  const parts = cellParts(0, 2, ".", d.get(2), 0.25);
  assert.equal(parts.cls, "ipyms-cell ipyms-covered ipyms-prob ipyms-marked");
  assert.equal(parts.text, "?");
  assert.equal(parts.label, "row 0, column 2: covered, 25% mine probability");
  assert.equal(parts.prob.kind, "guess");
  assert.equal(cellParts(3, 4, "3", ["ipyms-cursor"], undefined).cls, "ipyms-cell ipyms-revealed ipyms-n3 ipyms-cursor");
});

test("the minimap samples the board and says where the view is", () => {
  assert.deepEqual(minimapSize(2000, 1000), { width: 80, height: 160 });
  assert.deepEqual(minimapSize(9, 9), { width: 9, height: 9 });
  const px = minimapPixels("..0f", 2, 2, 2, 2);
  assert.deepEqual([...px.slice(8, 12)], [236, 240, 245, 255], "a revealed cell is light");
  assert.deepEqual([...px.slice(12, 16)], [229, 50, 45, 255], "a flag is red");
  assert.equal(positionText({ top: 0, left: 0, width: 170, height: 85 }, 17, 100, 100), "rows 0–4 of 100 · columns 0–9 of 100");
});

test("a cell holds no control, its number hidden from the accessibility tree, and no 1-based index said", () => {
  // NVDA falls into browse mode when a grid cell holds a button (nvda #8395); Orca read a cell's digit, not
  // its name, and added the 1-based aria-colindex beside the name's 0-based column (issue 55)
  for (const ch of ".f012345678*XFx") {
    const html = cellHtml(1, 4, cellParts(1, 4, ch, ch === "." ? ["ipyms-marked"] : undefined, undefined), "c");
    assert.doesNotMatch(html, /<(button|a|input|select|textarea)\b|role="(button|link|checkbox)"/, ch);
    assert.match(html, /role="gridcell" id="c" tabindex="-1" aria-colindex="5" aria-colindextext=" " aria-rowindextext=" "/);
    assert.match(html, /aria-label="row 1, column 4: /);
    const text = html.replace(/<span aria-hidden="true">[^<]*<\/span>/, "").replace(/<[^>]*>/g, "");
    assert.equal(text, "", `${ch}: no text outside the aria-hidden span`);
  }
  assert.match(cellHtml(0, 0, cellParts(0, 0, "2", undefined, undefined), "c"), />\s*<span aria-hidden="true">2<\/span><\/div>$/);
});

test("the Review panel: its summary at the top, the move, the solver's better cell outlined; the history waits", () => {
  const move = {
    number: 2, action: "reveal", row: 1, col: 1, kind: "unforced guess", good: false, better: true,
    text: "move 2 of 3: reveal (1,1): an unforced guess (20% mine) while (0,0) was certainly safe",
    best: { action: "reveal", row: 0, col: 0, reason: "(0,0) is safe", probability: 0 },
  };
  const model = modelOf({
    status: "lost", history_length: 4, game_metrics: { text: "3BV 7, 3 clicks" },
    reviewing: { index: 1, count: 3, summary: "3 moves, lost", metrics: "3BV 7", mistakes: [1], move },
  });
  const v = view(model, initialUi());
  assert.equal(v.panels.review.open, true);
  assert.equal(v.panels.review.summary, "Review: 3 moves, lost");
  assert.equal(v.panels.review.position, "move 2 of 3");
  assert.match(v.panels.review.best, /^not as good as the solver's\. The solver: reveal \(0,0\) · mine probability 0% — \(0,0\) is safe$/);
  assert.deepEqual([v.panels.review.previous, v.panels.review.next, v.panels.review.mistake], [false, false, true]);
  assert.equal(v.toolbar.review.pressed, true);
  assert.equal(v.history.back, true, "the history slider waits while the review steps through its own moves");
  assert.equal(v.panels.stats.game, "This game: 3BV 7, 3 clicks");
  const marks = decorations(model, initialUi());
  assert.deepEqual(marks.get(10), ["ipyms-reviewed-cell"]);
  assert.deepEqual(marks.get(0), ["ipyms-cursor", "ipyms-better-cell"]);
  const good = modelOf({ status: "won", reviewing: { index: 0, count: 1, summary: "", metrics: "", mistakes: [], move: { ...move, good: true, better: false } } });
  assert.ok(![...decorations(good, initialUi()).values()].flat().includes("ipyms-better-cell"), "no better cell to show");
  assert.equal(view(modelOf({ status: "playing" }), initialUi()).toolbar.review.disabled, true, "no review while the game is on");
});
