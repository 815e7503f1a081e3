// Seeing: the contrast of the cells' colours, computed from js/widget.css (the light palette of `.ipyms-root`
// and the dark one), as WCAG 2.x defines it; and reduced motion stops every animation of the widget.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

const CSS = readFileSync(new URL("./widget.css", import.meta.url), "utf8");

/** The custom properties declared in the first rule whose selector list ends with `selector`. */
function palette(selector) {
  const at = CSS.indexOf(`${selector} {`);
  assert.ok(at >= 0, `no rule ${selector}`);
  const body = CSS.slice(at, CSS.indexOf("}", at));
  return Object.fromEntries([...body.matchAll(/(--ipyms-[\w-]+):\s*([^;]+);/g)].map((m) => [m[1], m[2].trim()]));
}

const LIGHT = palette(".ipyms-root");
const DARK = { ...LIGHT, ...palette(".ipyms-root.ipyms-dark") };

/** [r, g, b, a] of a #rrggbb or rgba() value (0..255, alpha 0..1). */
function rgba(value) {
  const hex = /^#([0-9a-f]{6})$/i.exec(value);
  if (hex) return [0, 2, 4].map((k) => parseInt(hex[1].slice(k, k + 2), 16)).concat(1);
  const fn = /^rgba?\(([^)]+)\)$/.exec(value);
  assert.ok(fn, `not a colour: ${value}`);
  const [r, g, b, a = 1] = fn[1].split(",").map(Number);
  return [r, g, b, a];
}

/** A colour drawn over an opaque one. */
const over = ([r, g, b, a], [R, G, B]) => [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a), 1];

/** WCAG relative luminance and contrast ratio. */
function luminance([r, g, b]) {
  const lin = (v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

const THEMES = { light: LIGHT, dark: DARK };
const round = (x) => Math.round(x * 100) / 100;

test("each number's colour is at least 4.5:1 on a revealed cell, in both themes", () => {
  const figures = {};
  for (const [theme, p] of Object.entries(THEMES)) {
    const revealed = rgba(p["--ipyms-revealed"]);
    for (let n = 1; n <= 8; n++) {
      const ratio = contrast(rgba(p[`--ipyms-n${n}`]), revealed);
      figures[`${theme} ${n}`] = round(ratio);
      assert.ok(ratio >= 4.5, `${theme}: the ${n} is ${ratio.toFixed(2)}:1 on ${p["--ipyms-revealed"]}`);
    }
  }
  console.log("numbers on a revealed cell:", JSON.stringify(figures));
});

test("a covered cell's edge is at least 3:1 against a revealed cell, in both themes", () => {
  for (const [theme, p] of Object.entries(THEMES)) {
    const revealed = rgba(p["--ipyms-revealed"]);
    // the bevel: a light edge over the top of the gradient, a dark one over its bottom (WCAG 1.4.11: one edge
    // that stands out is enough to tell a covered cell from an open one)
    const light = over(rgba(p["--ipyms-bevel-light"]), rgba(p["--ipyms-covered-hi"]));
    const dark = over(rgba(p["--ipyms-bevel-dark"]), rgba(p["--ipyms-covered-lo"]));
    const ratio = Math.max(contrast(light, revealed), contrast(dark, revealed));
    console.log(`${theme}: covered edge ${round(contrast(light, revealed))} / ${round(contrast(dark, revealed))}:1`);
    assert.ok(ratio >= 3, `${theme}: a covered cell's edges are ${ratio.toFixed(2)}:1 on a revealed cell`);
  }
});

test("prefers-reduced-motion stops every animation and transition of the widget", () => {
  const animated = [...CSS.matchAll(/^\s*(animation|transition):/gm)].length;
  assert.ok(animated >= 2, "the widget animates the hint and the long-press cue");
  const at = CSS.indexOf("@media (prefers-reduced-motion: reduce)");
  assert.ok(at >= 0);
  const block = CSS.slice(at, CSS.indexOf("\n}\n", at));
  assert.match(block, /\.ipyms-root \*,\s*\.ipyms-root \*::before,\s*\.ipyms-root \*::after \{\s*animation: none !important;\s*transition: none !important;/);
});
