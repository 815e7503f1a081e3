// The shipped single-file bundle: up to date with js/, self-contained, and its render() works on a fake DOM-less model
// as far as module loading goes (anywidget imports it as one module string).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { STATIC_DIR, bundle, css } from "./build.mjs";

test("static/widget.js is the current bundle of js/ (run `node js/build.mjs`)", () => {
  assert.equal(readFileSync(join(STATIC_DIR, "widget.js"), "utf8"), bundle());
});

test("static/widget.css is the current copy of js/widget.css", () => {
  assert.equal(readFileSync(join(STATIC_DIR, "widget.css"), "utf8"), css());
});

test("the bundle is one module with no imports and a default export with render()", async () => {
  const text = bundle();
  assert.doesNotMatch(text, /^\s*import\s/m);
  const url = "data:text/javascript;base64," + Buffer.from(text).toString("base64");
  const mod = await import(url);
  assert.equal(typeof mod.default.render, "function");
});

test("the CSS styles every documented selector", () => {
  const text = css();
  for (const sel of [
    ".ipyms-root",
    ".ipyms-counter",
    ".ipyms-face",
    ".ipyms-timer",
    ".ipyms-board",
    ".ipyms-cell",
    ".ipyms-covered",
    ".ipyms-flagged",
    ".ipyms-mine",
    ".ipyms-exploded",
    ".ipyms-wrong-flag",
    ".ipyms-pressed",
    ".ipyms-cursor",
    ".ipyms-last-move",
    ".ipyms-error",
    ".ipyms-toolbar",
    ".ipyms-reason",
    'data-jp-theme-light="false"',
  ]) {
    assert.ok(text.includes(sel), `widget.css has no rule for ${sel}`);
  }
});
