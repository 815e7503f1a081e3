// The board's wire form (js/wire.js): the bytes Python's board_wire writes decode to the right cells.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  PACKED_FROM,
  applyPatch,
  bytesOf,
  decodeModel,
  decodePatch,
  diffCells,
  readBoardPatch,
  readCells,
  resyncWanted,
  wireCells,
} from "./wire.js";
import { synced } from "./testing.js";

test("a patch of runs: gap, length, two states per byte", () => {
  // python: diff("....", ".1f.") == bytes([1, 2, 49])
  assert.deepEqual(applyPatch("....", Uint8Array.from([1, 2, 49])), { cells: ".1f.", changed: [1, 2] });
  // two runs, the second after a gap of 1; an odd run pads its byte
  assert.deepEqual(decodePatch(Uint8Array.from([0, 1, 0x30, 1, 1, 0xb0]), 4), [
    { start: 0, chars: "1" },
    { start: 2, chars: "*" },
  ]);
  // a gap over 127 takes two varint bytes
  assert.equal(applyPatch(".".repeat(300), Uint8Array.from([0xab, 0x02, 1, 0x10])).cells[300 - 1], "f");
  assert.deepEqual(applyPatch("..", new Uint8Array()), { cells: "..", changed: [] });
});

test("a patch that does not fit the board is refused", () => {
  assert.throws(() => decodePatch(Uint8Array.from([3, 2, 0x33]), 4), /does not fit/);
  assert.throws(() => decodePatch(Uint8Array.from([0, 1, 0xf0]), 4), /alphabet/);
  assert.throws(() => decodePatch(Uint8Array.from([0x80]), 4), /ends inside a number/);
  assert.throws(() => decodePatch(Uint8Array.from([0, 0]), 4), /does not fit/);
});

test("a synced board_patch: its version first, then the runs; any binary value a host gives", () => {
  const bytes = Uint8Array.from([5, 1, 2, 49]);
  assert.deepEqual([...readBoardPatch(bytes).runs], [1, 2, 49]);
  assert.equal(readBoardPatch(bytes).version, 5);
  const view = new DataView(Uint8Array.from([9, 5, 1, 2, 49]).buffer, 1);
  assert.deepEqual([...bytesOf(view)], [5, 1, 2, 49], "a DataView (ipywidgets)");
  assert.deepEqual([...bytesOf(bytes.buffer)], [5, 1, 2, 49], "an ArrayBuffer");
  assert.equal(bytesOf(undefined).length, 0, "no patch yet");
  assert.equal(bytesOf({}).length, 0);
});

test("the decoded model applies the next patch once, ignores an old one, and notices a missed one", () => {
  const state = { ...synced({ rows: 1, cols: 4 }), cells: "....", cells_version: 4 };
  const get = (k) => state[k];
  let model = decodeModel(get);
  assert.deepEqual([model.cells, model.version, model.missing], ["....", 4, 0]);
  state.board_patch = new DataView(Uint8Array.from([5, 1, 2, 49]).buffer); // version 5: ".1f."
  model = decodeModel(get, model);
  assert.deepEqual([model.cells, model.version, model.missing], [".1f.", 5, 0]);
  model = decodeModel(get, model); // the same attributes again (another change event of the message)
  assert.deepEqual([model.cells, model.version], [".1f.", 5], "applied once");
  state.board_patch = Uint8Array.from([7, 0, 1, 0x30]); // version 7: version 6 was missed
  model = decodeModel(get, model);
  assert.deepEqual([model.cells, model.version, model.missing], [".1f.", 5, 7]);
  Object.assign(state, { cells: "11f.", cells_version: 7 }); // the whole board, sent again
  model = decodeModel(get, model);
  assert.deepEqual([model.cells, model.version, model.missing], ["11f.", 7, 0], "the old patch is ignored");
  state.board_patch = Uint8Array.from([8, 3, 1, 0xf0]); // a state outside the alphabet: never shown
  model = decodeModel(get, model);
  assert.deepEqual([model.cells, model.missing], ["11f.", 8]);
});

test("a saved state holds the patched board: a new view starts from it and ignores the last patch", () => {
  const state = { ...synced({ rows: 1, cols: 4 }), cells: ".1f.", cells_version: 5, board_patch: Uint8Array.from([5, 1, 2, 49]) };
  const model = decodeModel((k) => state[k]);
  assert.deepEqual([model.cells, model.version, model.missing], [".1f.", 5, 0]);
});

test("a big board's cells packed: ~ and the base64 of a patch from the all-covered view (python: wire_cells)", () => {
  const b64 = (bytes) => Buffer.from(Uint8Array.from(bytes)).toString("base64");
  assert.deepEqual(readCells("~", 2, 3), { cells: "......", problem: "" }, "a new game: no runs");
  assert.deepEqual(readCells(`~${b64([1, 2, 49])}`, 1, 4), { cells: ".1f.", problem: "" });
  assert.deepEqual(readCells("..1.", 2, 2), { cells: "..1.", problem: "" }, "anything else is the view itself");
  assert.match(readCells(`~${b64([3, 2, 0x33])}`, 1, 4).problem, /packed cells: a run of 2 cells at 3 does not fit/);
  assert.match(readCells(`~${b64([0, 1, 0xf0])}`, 1, 4).problem, /alphabet/);
  assert.match(readCells("~%%", 1, 4).problem, /packed cells/, "not base64");
  assert.match(readCells("~", 0, 4).problem, /bad board shape/);
  assert.match(readCells("..?.", 2, 2).problem, /alphabet/);
});

test("the decoded model reads packed cells, then applies patches to them", () => {
  const state = { ...synced({ rows: 2, cols: 2 }), cells: "~", cells_version: 0 };
  const get = (k) => state[k];
  let model = decodeModel(get);
  assert.deepEqual([model.cells, model.version, model.problem], ["....", 0, ""]);
  state.board_patch = Uint8Array.from([1, 1, 2, 49]); // version 1: ".1f."
  model = decodeModel(get, model);
  assert.deepEqual([model.cells, model.version], [".1f.", 1]);
  Object.assign(state, { cells: `~${Buffer.from([0, 1, 0x30]).toString("base64")}`, cells_version: 2 }); // whole: "1..."
  model = decodeModel(get, model);
  assert.deepEqual([model.cells, model.version], ["1...", 2]);
  state.cells = `~${Buffer.from([0, 9, 0x33]).toString("base64")}`; // 9 cells on a 2x2 board: not shown
  model = decodeModel(get, model);
  assert.deepEqual([model.cells, model.problem.startsWith("packed cells")], ["", true]);
});

// The golden cases Python writes (tests/golden/wire.json, read by tests/widget/test_board_wire_golden.py too):
// the same views give the same bytes here.
const GOLDEN = JSON.parse(readFileSync(new URL("../tests/golden/wire.json", import.meta.url), "utf8"));
const expand = (runs) => runs.split(",").map((run) => run.at(-1).repeat(Number(run.slice(0, -1)))).join("");
const hex = (bytes) => Buffer.from(bytes).toString("hex");

test("a move's patch is the golden one, and applies to the golden view", () => {
  assert.equal(GOLDEN.packed_from, PACKED_FROM);
  for (const c of GOLDEN.patches) {
    const [before, after] = [expand(c.before), expand(c.after)];
    if (c.patch === null) continue; // Python sends the whole view (a new shape, or no smaller)
    const bytes = Uint8Array.from(Buffer.from(c.patch, "hex"));
    const { version, runs } = readBoardPatch(bytes);
    assert.equal(version, c.version + 1, c.name);
    assert.equal(hex(diffCells(before, after)), hex(runs), `${c.name}: the same bytes`);
    assert.equal(applyPatch(before, runs).cells, after, c.name);
  }
});

test("a whole view travels as the golden text, and reads back", () => {
  for (const c of GOLDEN.whole) {
    const cells = expand(c.cells);
    assert.equal(wireCells(cells), c.wire, c.name);
    const rows = 1;
    assert.deepEqual(readCells(c.wire, rows, cells.length), { cells, problem: "" }, c.name);
  }
});

test("a missed patch asks for the whole board once", () => {
  const state = { ...synced({ rows: 1, cols: 4 }), cells: "....", cells_version: 4, board_patch: Uint8Array.from([6, 0, 1, 0x30]) };
  const model = decodeModel((k) => state[k]);
  assert.equal(model.missing, 6);
  assert.ok(resyncWanted(model, 0));
  assert.ok(!resyncWanted(model, 6), "asked already");
});
