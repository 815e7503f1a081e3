// Input rules of the ipyminesweeper front end, with no DOM, timers or model: what a click, a tap, a long
// press or a host's theme means. js/widget.js feeds them events; `node --test js/` tests them.
// js/build.mjs inlines this file into src/ipyminesweeper/static/widget.js (the `export ` keywords are dropped).
import { elapsedSeconds, isNumber } from "./helpers.js";

/** How long a finger must stay on a cell to flag it (ms), and how far it may drift meanwhile (px). */
export const LONG_PRESS_MS = 400;
export const TOUCH_SLOP_PX = 10;

/**
 * @typedef {{kind: "mouse" | "touch", button: number, idx: number, chording: boolean, x: number, y: number,
 *   fired: boolean}} Press
 */

/**
 * A pointer went down on cell `idx` (with view character `ch`). Returns the immediate action (a right
 * click flags at once) and the press to follow, or null when the pointer does nothing here.
 * @param {{pointerType: string, button: number, idx: number, x?: number, y?: number}} ev
 * @param {string} ch
 * @returns {{action: string | null, press: Press | null}}
 */
export function pressStart(ev, ch) {
  const touch = ev.pointerType === "touch" || ev.pointerType === "pen";
  if (ev.idx < 0 || ch == null) return { action: null, press: null };
  if (!touch && ev.button === 2) return { action: "flag", press: null };
  if (!touch && ev.button !== 0 && ev.button !== 1) return { action: null, press: null };
  const press = {
    kind: /** @type {"mouse" | "touch"} */ (touch ? "touch" : "mouse"),
    button: touch ? 0 : ev.button,
    idx: ev.idx,
    chording: !touch && ev.button === 1,
    x: ev.x ?? 0,
    y: ev.y ?? 0,
    fired: false,
  };
  return { action: null, press };
}

/** Whether a touch press that moved to (x, y) is a drag (scroll, pinch) rather than a press. */
export function driftedAway(press, x, y) {
  return press.kind === "touch" && Math.hypot(x - press.x, y - press.y) > TOUCH_SLOP_PX;
}

/** What a tap (or a left click released on the pressed cell) does to a cell showing `ch`. */
export function tapAction(ch, flagMode) {
  if (isNumber(ch)) return "chord"; // the engine ignores a chord whose flags do not match
  if (ch === ".") return flagMode ? "flag" : "reveal";
  if (ch === "f") return flagMode ? "flag" : null; // a flag protects its cell from a stray tap
  return null;
}

/** What holding a finger on a cell showing `ch` does: the other action than a tap. */
export function longPressAction(ch, flagMode) {
  if (isNumber(ch)) return "chord";
  if (ch === ".") return flagMode ? "reveal" : "flag";
  if (ch === "f") return flagMode ? null : "flag";
  return null;
}

/** Whether a long press may start on `ch` (the cue is shown only where it would do something). */
export const longPressable = (ch, flagMode) => longPressAction(ch, flagMode) !== null;

/**
 * The pointer came up over cell `idx` (showing `ch`). Returns the action to send, or null.
 * @param {Press} press
 * @param {number} idx
 * @param {number} button
 * @param {string} ch
 * @param {boolean} flagMode
 */
export function pressEnd(press, idx, button, ch, flagMode) {
  if (press.fired || idx < 0 || idx !== press.idx) return null;
  if (press.kind === "mouse" && button !== press.button) return null;
  if (press.chording) return "chord";
  return tapAction(ch, flagMode);
}

/**
 * The host page's colour scheme from what the view could read of it: "dark" or "light".
 * Explicit host markers win (JupyterLab, VS Code, marimo, Colab), then the colour behind the widget,
 * then the system setting (`prefers-color-scheme`).
 * @param {{jpThemeLight?: string | null, classes?: string[], themeAttrs?: (string | null | undefined)[],
 *   background?: number | null, prefersDark?: boolean}} host
 *   `background` is the relative luminance (0..1) of the first opaque background behind the widget.
 */
export function hostTheme(host) {
  if (host.jpThemeLight === "false") return "dark";
  if (host.jpThemeLight === "true") return "light";
  const classes = new Set(host.classes || []);
  if (classes.has("vscode-high-contrast-light") || classes.has("vscode-light")) return "light";
  if (classes.has("vscode-dark") || classes.has("vscode-high-contrast")) return "dark";
  for (const value of host.themeAttrs || []) {
    const v = String(value || "").toLowerCase();
    if (v === "dark" || v.endsWith("-dark")) return "dark";
    if (v === "light" || v.endsWith("-light")) return "light";
  }
  if (classes.has("dark") || classes.has("dark-theme") || classes.has("theme-dark")) return "dark";
  if (classes.has("light") || classes.has("light-theme") || classes.has("theme-light")) return "light";
  if (typeof host.background === "number") return host.background < 0.4 ? "dark" : "light";
  return host.prefersDark ? "dark" : "light";
}

/** Relative luminance (0..1) of a CSS `rgb()`/`rgba()` colour, or null when it is (nearly) transparent. */
export function luminance(css) {
  const m = String(css || "").match(/rgba?\(([^)]+)\)/);
  if (!m) return null;
  const parts = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
  if (parts.length < 3 || parts.slice(0, 3).some((v) => !Number.isFinite(v))) return null;
  if (parts.length >= 4 && !(parts[3] > 0.5)) return null;
  const lin = (v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const [r, g, b] = parts;
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** Seconds the timer shows in a saved copy (no kernel): the game's length if it ended, else the elapsed
 * time saved with the last change, never counting on. */
export function frozenSeconds(startedAt, endedAt, elapsed) {
  if (!startedAt) return 0;
  const secs = endedAt ? (endedAt - startedAt) / 1000 : Number(elapsed) || 0;
  return Math.max(0, Math.floor(secs));
}

/** The seconds the timer shows, and whether it runs (a subscription: js/widget.js starts the interval). */
export function timerOf(model, ui) {
  if (!ui.live) return { seconds: frozenSeconds(model.startedAt, model.endedAt, model.elapsed), running: false };
  const running = model.status === "playing" && !!model.startedAt && !model.endedAt;
  return { seconds: elapsedSeconds(model.startedAt, model.endedAt, ui.now), running };
}
