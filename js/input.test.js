// Unit tests of the input rules: `node --test js/` (node 20, no npm install).
import { test } from "node:test";
import assert from "node:assert/strict";

import { MAX_PENDING, withRequest } from "./wire.js";
import {
  driftedAway,
  frozenSeconds,
  hostTheme,
  longPressAction,
  longPressable,
  luminance,
  pressEnd,
  pressStart,
  tapAction,
} from "./input.js";

test("withRequest keeps the unanswered requests and numbers the new one", () => {
  let r = withRequest(undefined, 0, 0, { action: "reveal", row: 1, col: 2 });
  assert.deepEqual(r, { requests: [{ id: 1, action: "reveal", row: 1, col: 2 }], id: 1 });
  r = withRequest(r.requests, 0, r.id, { action: "undo" });
  assert.deepEqual(r.requests.map((q) => q.id), [1, 2]);
  // Python answered 1: only 2 is resent
  r = withRequest(r.requests, 1, r.id, { action: "step" });
  assert.deepEqual(r.requests, [{ id: 2, action: "undo" }, { id: 3, action: "step" }]);
  // ids never go back: after a reload `handled` (or an old view's lastId) is the floor
  assert.equal(withRequest([], 40, 0, { action: "undo" }).id, 41);
  assert.equal(withRequest([], 3, 9, { action: "undo" }).id, 10);
  const many = Array.from({ length: 100 }, (_, i) => ({ id: i + 1, action: "undo" }));
  assert.equal(withRequest(many, 0, 100, { action: "undo" }).requests.length, MAX_PENDING);
});

test("withRequest counts past 2**31 (a 32-bit `| 0` wrapped there and made the widget deaf)", () => {
  const big = 2 ** 31;
  const r = withRequest([{ id: big + 1, action: "undo" }], big, big + 1, { action: "step" });
  assert.equal(r.id, big + 2);
  assert.deepEqual(r.requests.map((q) => q.id), [big + 1, big + 2]);
  assert.equal(withRequest([], 2 ** 52, 0, { action: "undo" }).id, 2 ** 52 + 1);
});

test("a mouse: right button flags at once, left and middle press, others nothing", () => {
  assert.deepEqual(pressStart({ pointerType: "mouse", button: 2, idx: 3 }, "."), { action: "flag", press: null });
  const left = pressStart({ pointerType: "mouse", button: 0, idx: 3, x: 5, y: 6 }, ".");
  assert.equal(left.action, null);
  assert.deepEqual(left.press, { kind: "mouse", button: 0, idx: 3, chording: false, x: 5, y: 6, fired: false });
  assert.equal(pressStart({ pointerType: "mouse", button: 1, idx: 3 }, "2").press.chording, true);
  assert.deepEqual(pressStart({ pointerType: "mouse", button: 3, idx: 3 }, "."), { action: null, press: null });
  assert.deepEqual(pressStart({ pointerType: "mouse", button: 0, idx: -1 }, undefined), { action: null, press: null });
});

test("a left click acts where it was released, on the pressed cell only", () => {
  const { press } = pressStart({ pointerType: "mouse", button: 0, idx: 7 }, ".");
  assert.equal(pressEnd(press, 7, 0, ".", false), "reveal");
  assert.equal(pressEnd(press, 8, 0, ".", false), null);
  assert.equal(pressEnd(press, 7, 1, ".", false), null);
  assert.equal(pressEnd(press, 7, 0, "3", false), "chord");
  assert.equal(pressEnd(press, 7, 0, ".", true), "flag");
  const middle = pressStart({ pointerType: "mouse", button: 1, idx: 7 }, ".").press;
  assert.equal(pressEnd(middle, 7, 1, ".", false), "chord");
});

test("touch: a tap reveals, chords a number, flags in flag mode; a long press flags", () => {
  const { press } = pressStart({ pointerType: "touch", button: 0, idx: 4, x: 10, y: 10 }, ".");
  assert.equal(press.kind, "touch");
  assert.equal(pressEnd(press, 4, 0, ".", false), "reveal");
  assert.equal(pressEnd(press, 4, 0, ".", true), "flag");
  assert.equal(pressEnd(press, 4, 0, "1", false), "chord");
  assert.equal(pressEnd(press, 4, 0, "f", false), null, "a stray tap never reveals a flagged cell");
  assert.equal(pressEnd(press, 4, 0, "0", false), null);
  assert.equal(pressEnd({ ...press, fired: true }, 4, 0, ".", false), null, "the long press already acted");
  assert.equal(longPressAction(".", false), "flag");
  assert.equal(longPressAction("f", false), "flag");
  assert.equal(longPressAction(".", true), "reveal");
  assert.equal(longPressAction("2", false), "chord");
  assert.equal(longPressable("0", false), false);
  assert.equal(tapAction("*", false), null);
});

test("touch: a finger that drifts is a scroll, not a press", () => {
  const touch = pressStart({ pointerType: "touch", button: 0, idx: 4, x: 10, y: 10 }, ".").press;
  assert.equal(driftedAway(touch, 14, 14), false);
  assert.equal(driftedAway(touch, 10, 25), true);
  const mouse = pressStart({ pointerType: "mouse", button: 0, idx: 4, x: 10, y: 10 }, ".").press;
  assert.equal(driftedAway(mouse, 100, 100), false);
});

test("hostTheme: host markers first, then the background, then the system", () => {
  assert.equal(hostTheme({ jpThemeLight: "false", prefersDark: false }), "dark");
  assert.equal(hostTheme({ jpThemeLight: "true", prefersDark: true, classes: ["dark"] }), "light");
  assert.equal(hostTheme({ classes: ["vscode-dark"] }), "dark");
  assert.equal(hostTheme({ classes: ["vscode-high-contrast", "vscode-high-contrast-light"] }), "light");
  assert.equal(hostTheme({ classes: ["dark"], background: 0.9 }), "dark"); // marimo: body.dark
  assert.equal(hostTheme({ themeAttrs: [null, "dark"] }), "dark"); // Colab: <html theme="dark">
  assert.equal(hostTheme({ themeAttrs: ["light"], prefersDark: true }), "light");
  assert.equal(hostTheme({ background: 0.02, prefersDark: false }), "dark");
  assert.equal(hostTheme({ background: 0.95, prefersDark: true }), "light");
  assert.equal(hostTheme({ background: null, prefersDark: true }), "dark");
  assert.equal(hostTheme({}), "light");
});

test("luminance reads opaque rgb colours and skips transparent ones", () => {
  assert.equal(luminance("rgb(255, 255, 255)"), 1);
  assert.equal(luminance("rgb(0, 0, 0)"), 0);
  assert.ok(luminance("rgb(24, 24, 27)") < 0.05);
  assert.equal(luminance("rgba(0, 0, 0, 0)"), null);
  assert.equal(luminance("transparent"), null);
  assert.ok(luminance("rgba(250, 250, 250, 1)") > 0.9);
});

test("frozenSeconds: a saved copy's timer never counts on", () => {
  assert.equal(frozenSeconds(0, 0, 12), 0);
  assert.equal(frozenSeconds(1000, 42_500, 999), 41);
  assert.equal(frozenSeconds(1000, 0, 17.9), 17);
  assert.equal(frozenSeconds(1000, 0, 5000), 5000); // widens past 999 like the live timer
});
