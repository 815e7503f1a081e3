// The shipped single-file bundle: up to date with js/ (esbuild, minified, no source map), self-contained,
// and it carries the constants table Python exported (js/constants.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";

import { STATIC_DIR, bundle, css } from "./build.mjs";
import { CONSTANTS } from "./constants.js";

const shipped = (name) => readFileSync(join(STATIC_DIR, name), "utf8");

test("static/widget.js is the current bundle of js/ (run `make js`)", async () => {
  assert.equal(shipped("widget.js"), await bundle());
});

test("static/widget.css is the current minified js/widget.css", async () => {
  assert.equal(shipped("widget.css"), await css());
});

test("the bundle is minified, with no source map in the saved module", async () => {
  const text = shipped("widget.js");
  assert.doesNotMatch(text, /sourceMappingURL/);
  const readable = await bundle({ dev: true });
  assert.match(readable, /sourceMappingURL=data:/, "a --dev build has its map inline");
  assert.ok(text.length < 0.6 * readable.length, `${text.length} bytes, readable ${readable.length}`);
  // 65.7 KB before issue 58, 73.5 KB with its Review panel and links
  assert.ok(text.length < 80_000, `${text.length} bytes`);
});

test("the bundle is one module with no imports, render() and the constants table", async () => {
  const text = shipped("widget.js");
  assert.doesNotMatch(text, /^\s*import\s/m);
  const url = "data:text/javascript;base64," + Buffer.from(text).toString("base64");
  const mod = await import(url);
  assert.equal(typeof mod.default.render, "function");
  assert.deepEqual(mod.CONSTANTS, CONSTANTS);
});

test("the CSS styles every documented selector", async () => {
  const text = readFileSync(new URL("./widget.css", import.meta.url), "utf8");
  for (const sel of [
    ".ipyms-root", ".ipyms-counter", ".ipyms-face", ".ipyms-timer", ".ipyms-board", ".ipyms-cell", ".ipyms-covered",
    ".ipyms-flagged", ".ipyms-mine", ".ipyms-exploded", ".ipyms-wrong-flag", ".ipyms-pressed", ".ipyms-cursor",
    ".ipyms-last-move", ".ipyms-error", ".ipyms-toolbar", ".ipyms-reason", ".ipyms-minimap", ".ipyms-speed-value",
    'data-jp-theme-light="false"',
  ]) {
    assert.ok(text.includes(sel), `widget.css has no rule for ${sel}`);
  }
});
