// The scan keys, pure: a row or a column as a line of cells, the next number with a covered cell around it,
// and the reducer's R, V, J and K (K asks Python: the browser never learns where the mines are).
import { test } from "node:test";
import assert from "node:assert/strict";

import { LINE_ITEMS, columnSpeech, isOpenNumber, lineWords, nextOpenNumber, openNumberSpeech, rowSpeech } from "./scan.js";
import { initialUi, update } from "./ui.js";
import { keyOf } from "./helpers.js";
import { modelOf } from "./testing.js";

const rows = (...lines) => lines.join("");
// 4x4, mid-game: the 2 at (1,1) and the 1s at (2,2) and (2,3) still touch a covered cell; the other numbers do not
const BOARD = rows("1f..", "12f.", "0111", "0000");

test("a line of cells: numbers alone, runs of the same covered, flagged or empty cells counted", () => {
  assert.equal(lineWords([..."12..f000"]), "1, 2, 2 covered, flagged, 3 empty");
  assert.equal(lineWords([..."11"]), "1, 1", "numbers are never counted: each is read");
  assert.equal(lineWords([..."**Xxx"]), "2 mines, exploded mine, 2 wrong flags");
  assert.equal(lineWords([..."."]), "covered");
  const long = lineWords([..."1.".repeat(LINE_ITEMS)]);
  assert.match(long, /, and 60 more items$/, "a long line says how much it left out");
});

test("R and V read the cursor's row and column, in the board's 0-based numbering", () => {
  assert.equal(rowSpeech(BOARD, 4, 1), "row 1: 1, 2, flagged, covered");
  assert.equal(columnSpeech(BOARD, 4, 4, 0), "column 0: 1, 1, 2 empty");
  assert.equal(columnSpeech(BOARD, 4, 4, 3), "column 3: 2 covered, 1, empty");
});

test("J: the next number with a covered cell around it, in reading order, around to the start", () => {
  assert.ok(isOpenNumber(BOARD, 4, 4, 5), "(1,1): a 2 next to the covered (0,2)");
  assert.ok(!isOpenNumber(BOARD, 4, 4, 0), "(0,0): a 1 whose only closed neighbour is flagged is done");
  assert.ok(!isOpenNumber(BOARD, 4, 4, 2), "a covered cell is no number");
  const open = [...BOARD].map((_, i) => i).filter((i) => isOpenNumber(BOARD, 4, 4, i));
  assert.deepEqual(open, [5, 10, 11]);
  assert.equal(nextOpenNumber(BOARD, 4, 4, 0), 5);
  assert.equal(nextOpenNumber(BOARD, 4, 4, 10), 11);
  assert.equal(nextOpenNumber(BOARD, 4, 4, 11), 5, "after the last: around to the first");
  assert.equal(nextOpenNumber(BOARD, 4, 4, 3), 5, "from a cell that is no number");
  assert.equal(nextOpenNumber("1.", 1, 2, 0), 0, "the only one: the cursor's own");
  assert.equal(nextOpenNumber("10", 1, 2, 1), -1);
  assert.equal(openNumberSpeech(-1, 0), "no number has a covered cell around it");
  assert.equal(openNumberSpeech(0, 0), "no other number has a covered cell around it");
  assert.equal(openNumberSpeech(5, 0), "");
});

/** Run messages through the reducer: the last UI state and every effect. */
function run(model, msgs, ui = initialUi()) {
  const effects = [];
  for (const msg of msgs) {
    const [next, out] = update(ui, msg, model);
    ui = next;
    effects.push(...out);
  }
  return { ui, effects, sent: effects.filter((e) => e.type === "send").map((e) => e.request) };
}
const press = (key, more = {}) => ({ type: "key", act: keyOf({ key, ...more }) });

test("R, V, J and K are the scan keys, each letter in either case", () => {
  assert.deepEqual(["r", "V", "j", "K"].map((key) => keyOf({ key }).action), ["read_row", "read_column", "next_number", "next_safe"]);
  assert.equal(keyOf({ key: "k", ctrlKey: true }), null, "Ctrl+K is the host's");
});

test("R and V speak the line; J moves the cursor or says why not", () => {
  const model = modelOf({ rows: 4, cols: 4, mines: 3, status: "playing", cells: BOARD });
  const ui = { ...initialUi(), cursor: { row: 1, col: 0 } };
  assert.equal(run(model, [press("r")], ui).ui.speech.text, "row 1: 1, 2, flagged, covered");
  assert.equal(run(model, [press("v")], ui).ui.speech.text, "column 0: 1, 1, 2 empty");
  const jumped = run(model, [press("j")], ui);
  assert.deepEqual(jumped.ui.cursor, { row: 1, col: 1 }, "the cursor's cell is what the screen reader says");
  assert.deepEqual(jumped.effects, [{ type: "showCell", row: 1, col: 1 }]);
  assert.equal(jumped.ui.speech.text, "", "nothing else is said");
  const done = modelOf({ rows: 1, cols: 2, mines: 0, status: "won", cells: "00" });
  assert.equal(run(done, [press("j")]).ui.speech.text, "no number has a covered cell around it");
});

test("K asks Python for the next certainly safe cell after the cursor; its answer, a hint, moves the cursor", () => {
  const playing = (more = {}) => modelOf({ status: "playing", cells: "1" + ".".repeat(80), ...more });
  const model = playing();
  const ui = { ...run(model, [{ type: "model" }]).ui, cursor: { row: 2, col: 3 } }; // the board heard once
  const asked = run(model, [press("k")], ui);
  assert.deepEqual(asked.effects, [{ type: "send", request: { action: "next_safe", row: 2, col: 3 }, tag: "safe" }]);
  const waiting = run(model, [{ type: "sent", tag: "safe", id: 9 }], asked.ui).ui;
  assert.equal(waiting.safeWaitsFor, 9);
  const early = run(playing({ handled: 8 }), [{ type: "model" }], waiting).ui;
  assert.deepEqual(early.cursor, { row: 2, col: 3 }, "not answered yet");
  const hint = { action: "reveal", row: 5, col: 6, probability: 0, strategy: "exact", reason: "(5,6) is safe: the 1 at (4,5) ..." };
  const answered = run(playing({ handled: 9, hint_move: hint }), [{ type: "model" }], waiting);
  assert.deepEqual(answered.ui.cursor, { row: 5, col: 6 });
  assert.equal(answered.ui.safeWaitsFor, 0);
  assert.equal(answered.ui.speech.text, `Hint: ${hint.action} (5,6) · mine probability 0% · exact — ${hint.reason}`, "said once");
  const refused = run(playing({ handled: 9, error: "no covered cell is certainly safe" }), [{ type: "model" }], waiting);
  assert.deepEqual([refused.ui.cursor, refused.ui.safeWaitsFor], [{ row: 2, col: 3 }, 0], "none: the cursor stays");
  for (const off of [modelOf({ status: "lost" }), modelOf({ status: "playing", autoplaying: true }), modelOf({ status: "playing", viewing: 0, history_length: 2 })]) {
    assert.deepEqual(run(off, [press("k")]).sent, [], "not after the end, while autoplaying or looking back");
  }
});
