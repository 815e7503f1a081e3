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
  if (/^#[0-9a-f]{3}$/i.test(value)) value = `#${[...value.slice(1)].map((d) => d + d).join("")}`;
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

// CSS Color 4's system colours: the only colours a forced-colours rule may use (the user's palette)
const SYSTEM_COLOURS = new Set(["canvas", "canvastext", "buttonface", "buttontext", "buttonborder", "highlight",
  "highlighttext", "linktext", "visitedtext", "activetext", "graytext", "field", "fieldtext", "mark", "marktext",
  "selecteditem", "selecteditemtext", "accentcolor", "accentcolortext"]);

/** The rules of the `@media (forced-colors: active)` block: selector -> declarations. */
function forcedRules() {
  const at = CSS.indexOf("@media (forced-colors: active)");
  assert.ok(at >= 0, "a forced-colours block");
  const block = CSS.slice(CSS.indexOf("{", at) + 1, CSS.indexOf("\n}\n", at));
  return Object.fromEntries([...block.matchAll(/([^{}]+)\{([^}]*)\}/g)].map((m) => [m[1].trim().replace(/\s+/g, " "), m[2]]));
}
const marks = (rules, part) => Object.entries(rules).filter(([sel]) => sel.includes(part)).map(([, body]) => body).join("");

test("forced colours: each cell state is drawn in system colours, and no two alike", () => {
  const rules = forcedRules();
  for (const [sel, body] of Object.entries(rules)) {
    for (const [, prop, value] of body.matchAll(/([\w-]+):\s*([^;]+);/g)) {
      if (!/color|shadow|outline|border|background/.test(prop) || prop === "forced-color-adjust") continue;
      const words = value.replace(/!important|var\([^)]*\)|inset|solid|dashed|none|[\d.]+(px|%)?|-/g, " ").split(/[\s,]+/).filter(Boolean);
      for (const w of words) assert.ok(SYSTEM_COLOURS.has(w.toLowerCase()), `${sel} { ${prop}: ${value} }: ${w} is not a system colour`);
    }
  }
  // the cells opt out of the browser's repainting (which drops box shadows) and paint with the user's colours
  assert.match(rules[".ipyms-root .ipyms-board .ipyms-cell"] ?? "", /forced-color-adjust: none/);
  const covered = marks(rules, ".ipyms-covered");
  const open = marks(rules, ".ipyms-revealed");
  const hint = marks(rules, ".ipyms-hint-cell");
  const cursor = marks(rules, ".ipyms-cursor");
  assert.match(covered, /background-color: ButtonFace/);
  assert.match(covered, /box-shadow: inset 0 0 0 1px ButtonText/, "a covered cell is framed");
  assert.match(covered, /background-image: var\(--ipyms-cell-icon, none\)/, "a flag keeps its picture");
  assert.match(open, /background-color: Canvas;/);
  assert.match(open, /box-shadow: none/, "an open cell has no frame");
  assert.match(cursor, /outline: 3px solid Highlight/);
  assert.match(hint, /box-shadow: [^;]*LinkText/, "the hint is a ring, apart from the cursor's outline");
  assert.ok(!/outline/.test(hint) && !/box-shadow/.test(cursor), "the cursor and the hint can show on one cell");
});

/** A palette value as [r, g, b, a]: a colour, a var() (the host's, by its fallback) or a color-mix in srgb. */
function resolve(p, value) {
  value = value.trim();
  const own = /^var\((--ipyms-[\w-]+)\)$/.exec(value);
  if (own) return resolve(p, p[own[1]]);
  const host = /^var\(--[\w-]+,\s*(.+)\)$/.exec(value);
  if (host) return resolve(p, host[1]);
  const mix = /^color-mix\(in srgb,\s*(var\([^)]*\)+|#\w+)\s+(\d+)%,\s*(var\([^)]*\)+|#\w+)\)$/.exec(value);
  if (mix) {
    const [a, b, t] = [resolve(p, mix[1]), resolve(p, mix[3]), Number(mix[2]) / 100];
    return a.map((v, i) => v * t + b[i] * (1 - t));
  }
  return rgba(value);
}

test("the cursor's frame and the hint's ring are 3:1 or more on covered and open cells (WCAG 1.4.11)", () => {
  assert.match(CSS, /\.ipyms-cell\.ipyms-cursor \{\s*outline: 2px solid var\(--ipyms-fg\);/);
  assert.match(CSS, /\.ipyms-cell\.ipyms-hint-cell \{\s*box-shadow: inset 0 0 0 3px var\(--ipyms-hint-ring\);/);
  const figures = {};
  for (const [theme, p] of Object.entries(THEMES)) {
    const behind = { open: "--ipyms-revealed", "covered top": "--ipyms-covered-hi", "covered bottom": "--ipyms-covered-lo" };
    for (const [mark, name] of [["cursor", "--ipyms-fg"], ["hint", "--ipyms-hint-ring"]]) {
      const ratios = Object.values(behind).map((bg) => contrast(resolve(p, p[name]), rgba(p[bg])));
      figures[`${theme} ${mark}`] = ratios.map(round).join(" / ");
      assert.ok(Math.min(...ratios) >= 3, `${theme}: the ${mark} is ${figures[`${theme} ${mark}`]}:1 on ${Object.keys(behind)}`);
    }
  }
  console.log("on open / covered top / covered bottom:", JSON.stringify(figures));
});

test("the hint's ring keeps its colour through its pulse: no frame of the animation is fainter", () => {
  const frames = /@keyframes ipyms-hint \{([\s\S]*?)\n\}/.exec(CSS);
  assert.ok(frames, "the hint's animation is in the CSS");
  const shadows = [...frames[1].matchAll(/box-shadow: ([^;]+);/g)].map((m) => m[1]);
  assert.ok(shadows.length >= 2, "the animation has its frames");
  for (const shadow of shadows) {
    assert.match(shadow, /^inset 0 0 0 \d+px var\(--ipyms-hint-ring\)$/, `a frame draws the ring in another colour: ${shadow}`);
  }
});
