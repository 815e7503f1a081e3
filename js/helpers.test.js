// Unit tests of the pure front-end helpers: `node --test js/` (node 20, no npm install).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  VIEW_CHARS,
  cellClass,
  cellLabel,
  cellMessage,
  cellText,
  changedIndices,
  decodeProbabilities,
  overlayAt,
  decodeView,
  delayToSpeed,
  describeCell,
  elapsedSeconds,
  faceFor,
  formatCounter,
  formatPercent,
  keyOf,
  moveCursor,
  neighbours,
  overlayText,
  pressedCells,
  probabilityColor,
  probabilityKind,
  PROBABILITY_PALETTES,
  speedToDelay,
  statusMessage,
  toIndex,
  toPos,
} from "./helpers.js";

const state = (over = {}) => ({
  rows: 2,
  cols: 3,
  cells: ".f1" + "0..",
  status: "playing",
  mines_left: 4,
  started_at: 1000,
  ended_at: 0,
  ...over,
});

test("decodeView reads the synced traitlets", () => {
  const v = decodeView(state());
  assert.deepEqual(v, {
    rows: 2,
    cols: 3,
    cells: ".f10..",
    status: "playing",
    minesLeft: 4,
    startedAt: 1000,
    endedAt: 0,
  });
});

test("decodeView rejects a cells string of the wrong length or alphabet", () => {
  assert.throws(() => decodeView(state({ cells: ".f1" })), /expected 6/);
  assert.throws(() => decodeView(state({ cells: ".f1?.." })), /unknown view character/);
  assert.throws(() => decodeView(state({ rows: 0, cells: "" })), /bad board shape/);
});

test("changedIndices diffs two views, everything when the shape changed", () => {
  assert.deepEqual(changedIndices("....", ".1.f"), [1, 3]);
  assert.deepEqual(changedIndices("....", "...."), []);
  assert.deepEqual(changedIndices(null, "ab"), [0, 1]);
  assert.deepEqual(changedIndices("abc", "ab"), [0, 1]);
});

test("flat index and position round-trip", () => {
  assert.equal(toIndex(2, 5, 7), 19);
  assert.deepEqual(toPos(19, 7), [2, 5]);
});

test("cellClass covers the whole view alphabet", () => {
  assert.equal(cellClass("."), "ipyms-cell ipyms-covered");
  assert.equal(cellClass("f"), "ipyms-cell ipyms-covered ipyms-flagged");
  assert.equal(cellClass("0"), "ipyms-cell ipyms-revealed ipyms-n0");
  assert.equal(cellClass("3"), "ipyms-cell ipyms-revealed ipyms-n3");
  assert.match(cellClass("*"), /ipyms-mine/);
  assert.match(cellClass("X"), /ipyms-exploded/);
  assert.match(cellClass("F"), /ipyms-flagged-mine/);
  assert.match(cellClass("x"), /ipyms-wrong-flag/);
  for (const ch of VIEW_CHARS) assert.match(cellClass(ch), /^ipyms-cell /);
  assert.throws(() => cellClass("9"));
  assert.throws(() => cellClass("?"));
});

test("cellText shows numbers only", () => {
  assert.equal(cellText("5"), "5");
  for (const ch of ".f0*XFx") assert.equal(cellText(ch), "");
});

test("cellLabel reads the board's own (0-based) coordinates and what the cell is", () => {
  assert.equal(cellLabel(2, 4, "."), "row 2, column 4: covered");
  assert.equal(cellLabel(0, 0, "f"), "row 0, column 0: flagged");
  assert.equal(cellLabel(0, 1, "1"), "row 0, column 1: 1");
  assert.equal(cellLabel(0, 1, "3"), "row 0, column 1: 3");
  assert.equal(cellLabel(0, 1, "0"), "row 0, column 1: empty");
  assert.equal(cellLabel(4, 4, "X"), "row 4, column 4: exploded mine");
  assert.equal(cellLabel(1, 1, ".", 0.25), "row 1, column 1: covered, 25% mine probability");
  for (const ch of VIEW_CHARS) assert.ok(describeCell(ch).length > 0);
  assert.throws(() => describeCell("z"));
});

test("formatCounter gives three characters, more for big values", () => {
  assert.equal(formatCounter(40), "040");
  assert.equal(formatCounter(0), "000");
  assert.equal(formatCounter(7), "007");
  assert.equal(formatCounter(1234), "1234");
  assert.equal(formatCounter(1500), "1500");
  assert.equal(formatCounter(-3), "-03");
  assert.equal(formatCounter(-250), "-250");
  assert.equal(formatCounter(undefined), "000");
});

test("elapsedSeconds counts from the first reveal and stops at the end", () => {
  assert.equal(elapsedSeconds(0, 0, 99_999), 0);
  assert.equal(elapsedSeconds(10_000, 0, 15_900), 5);
  assert.equal(elapsedSeconds(10_000, 12_500, 99_000), 2);
  assert.equal(elapsedSeconds(10_000, 0, 9_000), 0); // clock skew never shows negative time
  assert.equal(elapsedSeconds(1, 0, 5_000_000), 4999); // the timer widens past 999
});

test("the LED timer and the end message agree: whole seconds completed (27.9 s is 027, 'won in 27 s')", () => {
  const [start, end] = [1_000, 28_900];
  assert.equal(formatCounter(elapsedSeconds(start, end, 99_999)), "027");
  assert.match(statusMessage("won", elapsedSeconds(start, end, 0)), /won in 27 s/);
  // Python words the summary the same way (tests/widget/test_whole_seconds.py): "won in 27 s"
});

test("faceFor and statusMessage follow the status", () => {
  assert.equal(faceFor("playing", false), "smile");
  assert.equal(faceFor("ready", true), "pressed");
  assert.equal(faceFor("won", true), "won");
  assert.equal(faceFor("lost", false), "lost");
  assert.match(statusMessage("won", 12), /won in 12 s/);
  assert.match(statusMessage("lost", 3), /You lost/);
  assert.equal(statusMessage("won", 41, "won in 41 s (assisted: 1 undo after a loss)"),
    "You won in 41 s (assisted: 1 undo after a loss)!");
  assert.match(statusMessage("lost", 9, "lost after 9 s"), /^Boom! You lost after 9 s\./);
  assert.equal(statusMessage("playing", 3), "");
});

test("keyOf maps the documented keys", () => {
  const k = (key, mods = {}) => keyOf({ key, ...mods });
  assert.deepEqual(k("ArrowUp"), { type: "move", dr: -1, dc: 0 });
  assert.deepEqual(k("ArrowDown"), { type: "move", dr: 1, dc: 0 });
  assert.deepEqual(k("ArrowLeft"), { type: "move", dr: 0, dc: -1 });
  assert.deepEqual(k("ArrowRight"), { type: "move", dr: 0, dc: 1 });
  assert.deepEqual(k(" "), { type: "action", action: "reveal" });
  assert.deepEqual(k("Enter"), { type: "action", action: "reveal" });
  assert.deepEqual(k("f"), { type: "action", action: "flag" });
  assert.deepEqual(k("F"), { type: "action", action: "flag" });
  assert.deepEqual(k("c"), { type: "action", action: "chord" });
  assert.deepEqual(k("n"), { type: "action", action: "new_game" });
  assert.deepEqual(k("u"), { type: "action", action: "undo" });
  assert.deepEqual(k("s"), { type: "action", action: "step" });
  assert.deepEqual(k("p"), { type: "action", action: "toggle_play" });
  assert.deepEqual(k("Home"), { type: "home" });
  assert.deepEqual(k("Home", { ctrlKey: true }), { type: "first" });
  assert.deepEqual(k("End", { ctrlKey: true }), { type: "last" });
  assert.equal(k("End", { ctrlKey: true, shiftKey: true }), null);
  assert.deepEqual(k("PageDown"), { type: "page", dir: 1 });
  assert.deepEqual(k("PageUp"), { type: "page", dir: -1 });
  assert.equal(k("q"), null);
  assert.equal(k("Tab"), null);
  assert.deepEqual(k("e"), { type: "action", action: "review" });
  assert.deepEqual(k("X"), { type: "action", action: "next_mistake" });
  assert.deepEqual(k("l"), { type: "action", action: "link" });
  assert.equal(k("l", { ctrlKey: true }), null, "Ctrl+L is the browser's (the address bar)");
  assert.deepEqual(k("c", { ctrlKey: true }), { type: "action", action: "copy" }); // copy the board
  assert.deepEqual(k("C", { metaKey: true }), { type: "action", action: "copy" });
  assert.equal(k("C", { ctrlKey: true, shiftKey: true }), null, "Ctrl+Shift+C is the host's (the command palette)");
  assert.equal(k("s", { ctrlKey: true }), null, "Ctrl+S is the host's (save)");
  assert.equal(k("c", { ctrlKey: true, altKey: true }), null);
  assert.deepEqual(k("z"), { type: "action", action: "undo" });
  assert.deepEqual(k("h"), { type: "action", action: "hint" });
  assert.deepEqual(k("["), { type: "action", action: "history_back" });
  assert.deepEqual(k("]"), { type: "action", action: "history_forward" });
  assert.deepEqual(k("?"), { type: "action", action: "help" });
  assert.deepEqual(k("Escape"), { type: "action", action: "escape" });
  assert.equal(k("f", { metaKey: true }), null);
  assert.equal(k("ArrowUp", { altKey: true }), null);
});

test("moveCursor clamps to the board", () => {
  assert.deepEqual(moveCursor([0, 0], { type: "move", dr: -1, dc: 0 }, 3, 4), [0, 0]);
  assert.deepEqual(moveCursor([0, 0], { type: "move", dr: 1, dc: 1 }, 3, 4), [1, 1]);
  assert.deepEqual(moveCursor([2, 3], { type: "move", dr: 1, dc: 1 }, 3, 4), [2, 3]);
  assert.deepEqual(moveCursor([1, 2], { type: "home" }, 3, 4), [1, 0]);
  assert.deepEqual(moveCursor([1, 2], { type: "end" }, 3, 4), [1, 3]);
  assert.deepEqual(moveCursor([1, 2], { type: "first" }, 3, 4), [0, 0]);
  assert.deepEqual(moveCursor([1, 2], { type: "last" }, 3, 4), [2, 3]);
  assert.deepEqual(moveCursor([1, 2], { type: "page", dir: 1 }, 30, 4, 10), [11, 2]);
  assert.deepEqual(moveCursor([25, 2], { type: "page", dir: 1 }, 30, 4, 10), [29, 2]);
  assert.deepEqual(moveCursor([5, 2], { type: "page", dir: -1 }, 30, 4, 10), [0, 2]);
});

test("cellMessage turns a reveal on a number into a chord", () => {
  assert.deepEqual(cellMessage("reveal", 1, 2, "."), { action: "reveal", row: 1, col: 2 });
  assert.deepEqual(cellMessage("reveal", 1, 2, "3"), { action: "chord", row: 1, col: 2 });
  assert.deepEqual(cellMessage("flag", 0, 0, "."), { action: "flag", row: 0, col: 0 });
});

test("neighbours stay on the board", () => {
  assert.equal(neighbours(0, 0, 3, 3).length, 3);
  assert.equal(neighbours(1, 1, 3, 3).length, 8);
  assert.deepEqual(neighbours(0, 0, 1, 2), [[0, 1]]);
});

test("pressedCells previews a reveal or a chord", () => {
  // 3x3: covered ring around a 1 in the middle, one flag at (0,0)
  const cells = "f.." + ".1." + "...";
  assert.deepEqual(pressedCells(0, 1, cells, 3, 3, false), [[0, 1]]);
  assert.deepEqual(pressedCells(0, 0, cells, 3, 3, false), []); // flagged: nothing
  const chord = pressedCells(1, 1, cells, 3, 3, false);
  assert.equal(chord.length, 7); // 8 neighbours minus the flag
  assert.ok(!chord.some(([r, c]) => r === 0 && c === 0));
  const middle = pressedCells(0, 1, cells, 3, 3, true); // middle button on a covered cell
  assert.ok(middle.some(([r, c]) => r === 0 && c === 1));
});

/** sRGB hex → [hue 0..360, saturation 0..1, lightness 0..1]. */
function hsl(hex) {
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  if (d === 0) return [0, 0, l];
  const s = d / (1 - Math.abs(2 * l - 1));
  let h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  h = (h * 60 + 360) % 360;
  return [h, s, l];
}

test("probabilityKind: certain safe, certain mine, guess", () => {
  assert.equal(probabilityKind(0), "safe");
  assert.equal(probabilityKind(1), "mine");
  assert.equal(probabilityKind(1 - 1e-12), "mine");
  assert.equal(probabilityKind(1e-12), "safe");
  assert.equal(probabilityKind(0.004), "guess");
  assert.equal(probabilityKind(0.18), "guess");
  assert.equal(probabilityKind(0.996), "guess");
});

test("probabilityColor: certain cells have their own colours, guesses a yellow → red ramp", () => {
  for (const theme of ["light", "dark"]) {
    const pal = PROBABILITY_PALETTES[theme];
    assert.equal(probabilityColor(0, theme), pal.safe);
    assert.equal(probabilityColor(1, theme), pal.mine);
    assert.equal(probabilityColor(7, theme), pal.mine);
    assert.equal(probabilityColor(-1, theme), pal.safe);
    assert.match(probabilityColor(0.18, theme), /^#[0-9a-f]{6}$/);
    // safe is green/teal, a common 18% guess is yellow: at least 70 degrees of hue apart
    const [hSafe] = hsl(probabilityColor(0, theme));
    const [h18] = hsl(probabilityColor(0.18, theme));
    assert.ok(hSafe >= 140 && hSafe <= 180, `${theme} safe hue ${hSafe}`);
    assert.ok(h18 >= 38 && h18 <= 60, `${theme} 18% hue ${h18}`);
    assert.ok(hSafe - h18 >= 70);
    // the guess ramp's hue falls monotonically from yellow to red; certain mines are red
    let prev = Infinity;
    for (const p of [0.01, 0.1, 0.18, 0.3, 0.5, 0.7, 0.9, 0.99]) {
      const [h] = hsl(probabilityColor(p, theme));
      assert.ok(h <= prev + 0.5, `${theme} hue at ${p}: ${h} after ${prev}`);
      assert.ok(h < 60 && h >= 0);
      prev = h;
    }
    assert.ok(hsl(probabilityColor(0.5, theme))[0] >= 20 && hsl(probabilityColor(0.5, theme))[0] <= 40); // orange
    const [hMine] = hsl(probabilityColor(1, theme));
    assert.ok(hMine <= 10 || hMine >= 350, `${theme} mine hue ${hMine}`);
  }
  // exact stops
  assert.equal(probabilityColor(0), "#1fa67a");
  assert.equal(probabilityColor(1), "#d7302a");
  assert.equal(probabilityColor(0.5), "#ffb94f");
  assert.equal(probabilityColor(0.5, "dark"), "#885e30");
  assert.equal(probabilityColor(0.5, "nope"), probabilityColor(0.5));
  // the dark palette is dimmer and less saturated than the light one
  for (const p of [0, 0.18, 0.5, 0.9, 1]) {
    const [, sl, ll] = hsl(probabilityColor(p, "light"));
    const [, sd, ld] = hsl(probabilityColor(p, "dark"));
    assert.ok(ld < ll && sd < sl, `dark at ${p}`);
  }
});

test("overlayText is the whole percent without the sign", () => {
  assert.equal(overlayText(0.19), "19");
  assert.equal(overlayText(1), "100");
  assert.equal(overlayText(0.004), "<1");
  assert.equal(overlayText(0.996), "99");
  assert.equal(formatPercent(0.25), "25%");
  assert.equal(formatPercent(0.001), "<1%");
  assert.equal(formatPercent(0.999), ">99%");
  assert.equal(formatPercent(0), "0%");
});

test("the overlay lists the cells next to a number; '*' is every other covered or flagged cell", () => {
  const o = decodeProbabilities({ 1: 0.5, "*": 0.2 }, 6);
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((i) => overlayAt(o, ".1.f2.", i)), [0.2, 0.5, 0.2, 0.2, undefined, 0.2]);
  assert.equal(decodeProbabilities({ 1: 0.5, "*": 2 }, 6).elsewhere, undefined); // junk: nothing elsewhere
  assert.equal(overlayAt(decodeProbabilities({ 1: 0.5 }, 6), "......", 0), undefined);
});

test("decodeProbabilities keeps valid entries only", () => {
  const m = decodeProbabilities({ 0: 0.5, 3: 1, 9: 0.1, "-1": 0.2, x: 0.3, 2: "0.4", 1: 1.5 }, 6).cells;
  assert.deepEqual([...m.entries()].sort(), [
    [0, 0.5],
    [3, 1],
  ]);
  assert.equal(decodeProbabilities(null, 6).cells.size, 0);
});

test("speed slider and delay are inverse, fast is short", () => {
  assert.equal(speedToDelay(0), 2);
  assert.equal(speedToDelay(100), 0.01);
  assert.ok(speedToDelay(75) < speedToDelay(25));
  for (const s of [0, 10, 50, 90, 100]) assert.equal(delayToSpeed(speedToDelay(s)), s);
});

