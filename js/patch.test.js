// Board patches: the bytes Python's patch.diff writes decode to the right cells.
import { test } from "node:test";
import assert from "node:assert/strict";
import { applyPatch, decodePatch } from "./patch.js";

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
