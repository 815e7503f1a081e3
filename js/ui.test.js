// The UI reducer: update(ui, msg, model) -> [ui, effects], with plain objects (no DOM, no timers).
import { test } from "node:test";
import assert from "node:assert/strict";

import { PROBE_MS, controls, initialUi, onlyScrolled, pageRows, takesKey, update } from "./ui.js";
import { modelOf } from "./testing.js";

/** Run messages through the reducer; returns the last UI state and every effect, in order. */
function run(model, msgs, ui = initialUi()) {
  const effects = [];
  for (const msg of msgs) {
    const [next, out] = update(ui, msg, model);
    ui = next;
    effects.push(...out);
  }
  return { ui, effects, sent: effects.filter((e) => e.type === "send").map((e) => e.request) };
}

const mouse = (idx, button = 0) => ({ type: "pointerdown", idx, pointerType: "mouse", button, x: 0, y: 0 });
const touch = (idx, x = 0, y = 0) => ({ type: "pointerdown", idx, pointerType: "touch", button: 0, x, y });

test("a left click reveals on release over the same cell, a right click flags at once", () => {
  const model = modelOf({ status: "playing" });
  const click = run(model, [mouse(10), { type: "pointerup", idx: 10, button: 0 }]);
  assert.deepEqual(click.sent, [{ action: "reveal", row: 1, col: 1 }]);
  assert.deepEqual(click.ui.cursor, { row: 1, col: 1 }, "the press moves the cursor");
  assert.ok(click.effects.some((e) => e.type === "focus"));
  assert.deepEqual(run(model, [mouse(10), { type: "pointerup", idx: 11, button: 0 }]).sent, [], "released elsewhere");
  assert.deepEqual(run(model, [mouse(3, 2)]).sent, [{ action: "flag", row: 0, col: 3 }]);
  const moved = run(model, [mouse(10), { type: "pointermove", idx: 12, x: 5, y: 5 }]);
  assert.equal(moved.ui.press.idx, 12, "the pressed cell follows the mouse");
});

test("a long press flags while the finger is down; a drift does nothing; a stale timer is ignored", () => {
  const model = modelOf({ status: "playing" });
  const down = run(model, [touch(5)]);
  const start = down.effects.find((e) => e.type === "startLongPress");
  assert.ok(start, "the long-press timer starts on a covered cell");
  const held = run(model, [{ type: "longpress", id: start.id }, { type: "pointerup", idx: -1, button: 0 }], down.ui);
  assert.deepEqual(held.sent, [{ action: "flag", row: 0, col: 5 }]);
  assert.ok(held.effects.some((e) => e.type === "vibrate"));
  const drift = run(model, [{ type: "pointermove", idx: 5, x: 30, y: 0 }, { type: "longpress", id: start.id }], down.ui);
  assert.deepEqual(drift.sent, [], "a finger that moved is a scroll");
  assert.deepEqual(run(model, [{ type: "longpress", id: start.id + 1 }], down.ui).sent, []);
  const flagMode = run(model, [{ type: "flagMode" }, touch(5), { type: "pointerup", idx: -1, button: 0 }]);
  assert.deepEqual(flagMode.sent, [{ action: "flag", row: 0, col: 5 }], "in flag mode a tap flags");
});

test("nothing is played on a snapshot, after the end, or while looking back", () => {
  const snapshot = { ...initialUi(), live: false };
  assert.deepEqual(run(modelOf({ status: "playing" }), [mouse(3, 2), { type: "key", act: { type: "action", action: "flag" } }], snapshot).sent, []);
  const lost = modelOf({ status: "lost" });
  assert.deepEqual(run(lost, [mouse(3, 0), { type: "pointerup", idx: 3, button: 0 }]).sent, []);
  const looking = modelOf({ status: "playing", viewing: 0, history_length: 3 });
  assert.equal(controls(looking, initialUi()).step, false);
  assert.equal(controls(looking, initialUi()).flagMode, false);
  assert.equal(run(lost, [{ type: "flagMode" }]).ui.flagMode, false);
});

test("keys move the cursor (clamped), act on it, and follow the controls' rules", () => {
  const model = modelOf({ status: "playing", cells: "1" + ".".repeat(80) });
  const key = (k) => ({ type: "key", act: k.length === 2 ? { type: "move", dr: k[0], dc: k[1] } : { type: "action", action: k } });
  const moved = run(model, [key([0, -1]), key([1, 0]), key([1, 0])]);
  assert.deepEqual(moved.ui.cursor, { row: 2, col: 0 });
  assert.ok(moved.ui.kbd && moved.effects.every((e) => e.type === "showCell"), "the cursor is scrolled into view");
  assert.deepEqual(moved.effects.at(-1), { type: "showCell", row: 2, col: 0 });
  assert.deepEqual(run(model, [key("reveal")]).sent, [{ action: "chord", row: 0, col: 0 }], "Enter on a number chords");
  assert.deepEqual(run(model, [key("step"), key("hint"), key("toggle_play")]).sent, [{ action: "step" }, { action: "hint" }, { action: "play" }]);
  const auto = modelOf({ status: "playing", autoplaying: true });
  assert.deepEqual(run(auto, [key("step"), key("toggle_play")]).sent, [{ action: "pause" }], "no step while playing");
  const none = modelOf({ status: "playing", strategies: [] });
  assert.deepEqual(run(none, [key("step"), key("hint")]).sent, []);
  assert.deepEqual(run(model, [key("history_back")]).sent, [], "no history yet");
  const history = modelOf({ status: "playing", history_length: 4 });
  assert.deepEqual(run(history, [key("history_back")]).effects, [{ type: "send", request: { action: "scrub", index: 2 }, tag: "scrub" }]);
});

test("Escape is the board's only when it has something to close; else the host keeps it", () => {
  const model = modelOf();
  const esc = { type: "action", action: "escape" };
  assert.equal(takesKey(esc, initialUi(), model), false);
  assert.equal(takesKey({ type: "action", action: "flag" }, initialUi(), model), true);
  assert.equal(takesKey(null, initialUi(), model), false, "keys the board does not know go to the host");
  const open = run(model, [{ type: "panel", name: "help" }]).ui;
  assert.equal(takesKey(esc, open, model), true);
  assert.equal(run(model, [{ type: "key", act: esc }], open).ui.panels.help, false);
  const looking = modelOf({ viewing: 1, history_length: 3 });
  assert.equal(takesKey(esc, initialUi(), looking), true);
  assert.deepEqual(run(looking, [{ type: "key", act: esc }]).sent, [{ action: "live" }]);
});

test("the picker opens with the game on screen, checks the form, waits for Python and shows its answer", () => {
  const model = modelOf({ rows: 16, cols: 30, mines: 99, level: "expert", first_click: "safe" });
  const opened = run(model, [{ type: "pickerToggle" }]);
  assert.equal(opened.ui.panels.picker, true);
  assert.deepEqual(opened.ui.form, { level: "expert", rows: "16", cols: "30", mines: "99", firstClick: "safe" });
  assert.ok(opened.effects.some((e) => e.type === "fillPicker"));
  const bad = run(model, [{ type: "pickerEdit", field: "mines", value: "-3" }, { type: "pickerStart" }], opened.ui);
  assert.equal(bad.ui.form.level, "custom", "typing a number picks Custom");
  assert.equal(bad.ui.pickerError, "mines = -3: the number of mines cannot be negative");
  assert.deepEqual(bad.sent, []);
  const good = run(model, [{ type: "pickerEdit", field: "mines", value: "100" }, { type: "pickerStart" }], bad.ui);
  assert.deepEqual(good.effects.at(-1), { type: "send", request: { action: "new_game", rows: 16, cols: 30, mines: 100, first_click: "safe" }, tag: "picker" });
  const waiting = run(model, [{ type: "sent", tag: "picker", id: 7 }], good.ui).ui;
  assert.equal(run(modelOf({ handled: 6 }), [{ type: "model" }], waiting).ui.panels.picker, true, "not answered yet");
  const refused = run(modelOf({ handled: 7, error: "ignored a message from the browser: no" }), [{ type: "model" }], waiting).ui;
  assert.deepEqual([refused.panels.picker, refused.pickerError], [true, "no"]);
  assert.equal(run(modelOf({ handled: 7 }), [{ type: "model" }], waiting).ui.panels.picker, false, "started: it closes");
});

test("settings, zoom and requests from the toolbar", () => {
  const model = modelOf({ cell_size: 24 });
  assert.deepEqual(run(model, [{ type: "zoom", direction: 1 }]).effects, [{ type: "set", name: "cell_size", value: 28 }]);
  assert.deepEqual(run(model, [{ type: "setting", name: "delay", value: 1 }]).effects, [{ type: "set", name: "delay", value: 1 }]);
  assert.deepEqual(run(model, [{ type: "request", request: { action: "undo" } }]).sent, [{ action: "undo" }]);
  assert.deepEqual(run(model, [{ type: "request", request: { action: "undo" } }], { ...initialUi(), live: false }).sent, []);
  assert.throws(() => update(initialUi(), { type: "bogus" }, model), /unknown UI message/);
});

test("a new hint is scrolled into view, once", () => {
  const hinted = modelOf({ rows: 500, cols: 500, hint_move: { action: "reveal", row: 400, col: 300 } });
  const first = run(hinted, [{ type: "model" }]);
  assert.deepEqual(first.effects, [{ type: "showCell", row: 400, col: 300 }]);
  assert.deepEqual(run(hinted, [{ type: "model" }], first.ui).effects, [], "the same hint again: no scroll");
  assert.deepEqual(run(modelOf({ rows: 500, cols: 500 }), [{ type: "model" }], first.ui).effects, []);
});

test("a scroll changes only the scroll window; a new view settles (draws its margin) once", () => {
  const model = modelOf({ rows: 100, cols: 100, mines: 1000 });
  const ui = initialUi();
  const [scrolled] = update(ui, { type: "scroll", top: 170, left: 34, width: 800, height: 600 }, model);
  assert.ok(onlyScrolled(ui, scrolled), "only the grid is drawn again");
  const [wider] = update(scrolled, { type: "resize", width: 700 }, model);
  assert.ok(!onlyScrolled(scrolled, wider), "a new width: everything");
  assert.ok(!onlyScrolled(null, ui) && !onlyScrolled(ui, ui), "a first paint, or nothing changed");
  assert.equal(ui.settled, false);
  const [settled] = update(ui, { type: "settled" }, model);
  assert.equal(settled.settled, true);
  assert.equal(update(settled, { type: "settled" }, model)[0], settled, "the same state: nothing to draw");
});

test("a view asks whether a kernel is behind it: no answer in time is a snapshot, an answer is live", () => {
  const asked = run(modelOf(), [{ type: "probe" }]);
  assert.deepEqual(asked.sent, [{ action: "resync" }], "any kernel answers a resync");
  assert.deepEqual(asked.effects.at(-1), { type: "later", name: "probe", ms: PROBE_MS, msg: { type: "probeTimeout" } });
  const waiting = run(modelOf(), [{ type: "sent", tag: "probe", id: 5 }], asked.ui).ui;
  assert.equal(waiting.live, true, "live until the time is up");
  const silent = run(modelOf({ handled: 4 }), [{ type: "probeTimeout" }], waiting).ui;
  assert.equal(silent.live, false, "no kernel answered: a snapshot");
  assert.deepEqual(run(modelOf({ status: "playing" }), [mouse(3, 2)], silent).sent, [], "a snapshot plays nothing");
  const answered = run(modelOf({ handled: 5 }), [{ type: "model" }], silent).ui;
  assert.equal(answered.live, true, "a late answer: live again");
  assert.equal(run(modelOf({ handled: 5 }), [{ type: "probeTimeout" }], answered).ui.live, true);
});

test("PageDown moves a view of rows less one, Ctrl+End to the last cell, and the cell is shown", () => {
  const model = modelOf({ rows: 100, cols: 30, status: "playing", cells: ".".repeat(3000), cell_size: 20 });
  const ui = { ...initialUi(), scroll: { top: 0, left: 0, width: 600, height: 400 } };
  assert.equal(pageRows(model, ui), 19, "400 px of 20 px rows: 20 in view, 19 moved");
  const paged = run(model, [{ type: "key", act: { type: "page", dir: 1 } }], ui);
  assert.deepEqual(paged.ui.cursor, { row: 19, col: 0 });
  assert.deepEqual(paged.effects, [{ type: "showCell", row: 19, col: 0 }]);
  const last = run(model, [{ type: "key", act: { type: "last" } }], ui);
  assert.deepEqual(last.ui.cursor, { row: 99, col: 29 });
  assert.equal(pageRows(model, initialUi()), 8, "before the first layout");
});

test("? says every key, and closing the help says so; G says flag mode; Ctrl+C says the copy, the button does not", async () => {
  const { HELP_SPEECH } = await import("./ui.js");
  const { KEY_HELP } = await import("./features.js");
  const model = modelOf({ status: "playing" });
  const help = { type: "key", act: { type: "action", action: "help" } };
  const open = run(model, [help]).ui;
  assert.equal(open.panels.help, true);
  assert.equal(open.speech.text, HELP_SPEECH);
  for (const [k, what] of KEY_HELP) assert.ok(HELP_SPEECH.includes(`${k}: ${what}`), k);
  assert.match(HELP_SPEECH, /^Keys: Arrows, Home, End: .* R, V: read the cursor's row, or its column, .* K: jump to the next cell/);
  assert.equal(run(model, [help], open).ui.speech.text, "help closed");
  const g = { type: "key", act: { type: "action", action: "flag_mode" } };
  const on = run(model, [g]).ui;
  assert.deepEqual([on.flagMode, on.speech.text], [true, "flag mode on: clicks and taps flag"]);
  assert.equal(run(model, [g], on).ui.speech.text, "flag mode off: clicks and taps reveal");
  assert.equal(run(modelOf({ status: "lost" }), [g]).ui.speech.text, "", "no flag mode after the end: nothing said");
  const copy = run(model, [{ type: "key", act: { type: "action", action: "copy" } }]);
  assert.deepEqual(copy.effects, [{ type: "copy", speak: true }]);
  assert.equal(run(model, [{ type: "copied", ok: true, speak: true }]).ui.speech.text, "copied the board as text");
  assert.equal(run(model, [{ type: "copied", ok: false, speak: true }]).ui.speech.text, "copy failed: the browser refused the clipboard");
  assert.deepEqual(run(model, [{ type: "copyButton" }]).effects, [{ type: "copy", speak: false }]);
  const button = run(model, [{ type: "copied", ok: true, speak: false }]).ui;
  assert.deepEqual([button.copied, button.speech.text], ["yes", ""], "the button's own text says Copied");
});

test("a cell that takes the focus (a screen reader leaving browse mode) becomes the cursor; the root takes the focus", () => {
  const model = modelOf({ status: "playing" });
  const focused = run(model, [{ type: "focusCell", idx: 40 }]);
  assert.deepEqual(focused.ui.cursor, { row: 4, col: 4 });
  assert.deepEqual(focused.effects, [{ type: "focus" }]);
  assert.equal(focused.ui.kbd, false, "a click's focus does not draw the keyboard's frame");
  assert.equal(run(model, [{ type: "focusCell", idx: 40 }], { ...initialUi(), kbd: true }).ui.kbd, true);
  assert.deepEqual(run(model, [{ type: "focusCell", idx: 81 }]).effects, [], "not a cell of this board");
});

test("the picker takes the focus once shown, and a level shows its size in the size fields", () => {
  const model = modelOf();
  const opened = run(model, [{ type: "pickerToggle" }]);
  assert.deepEqual(opened.effects.map((e) => e.type), ["fillPicker", "focusPicker"]);
  const expert = run(model, [{ type: "pickerEdit", field: "level", value: "expert" }], opened.ui);
  assert.deepEqual(expert.ui.form, { level: "expert", rows: "16", cols: "30", mines: "99", firstClick: "opening" });
  assert.deepEqual(expert.effects, [{ type: "fillPicker", form: expert.ui.form }], "the fields are filled, the focus stays");
  const custom = run(model, [{ type: "pickerEdit", field: "level", value: "custom" }], expert.ui);
  assert.deepEqual([custom.ui.form.rows, custom.effects], ["16", []], "Custom keeps the size shown, to edit");
  assert.deepEqual(run(model, [{ type: "pickerClose" }], opened.ui).effects, [{ type: "focus" }], "closed: back to the board");
});

const keyAct = (action) => ({ type: "key", act: { type: "action", action } });
const MOVE = { number: 3, action: "reveal", row: 1, col: 2, kind: "unforced guess", good: false, text: "move 3 of 5: reveal (1,2): an unforced guess", best: { action: "reveal", row: 0, col: 0 }, better: true };
const reviewing = (index, extra = {}) => ({ index, count: 5, summary: "5 moves, lost", metrics: "3BV 12", mistakes: [2, 4], move: { ...MOVE, number: index + 1 }, ...extra });

test("E opens the review of a finished game, [ ] and X step through it, E and Esc close it", () => {
  const on = modelOf({ status: "playing" });
  assert.equal(controls(on, initialUi()).review, false, "the Review button waits for the end of the game");
  assert.deepEqual(run(on, [keyAct("review")]).sent, [{ action: "review" }], "E asks: Python's error line says why not");
  const over = modelOf({ status: "lost" });
  assert.deepEqual(run(over, [keyAct("review")]).sent, [{ action: "review" }]);
  const open = modelOf({ status: "lost", reviewing: reviewing(2) });
  assert.deepEqual(run(open, [keyAct("history_back"), keyAct("history_forward")]).sent, [
    { action: "review", index: 1 },
    { action: "review", index: 3 },
  ], "[ and ] step through the review's moves, not the history");
  assert.deepEqual(run(open, [keyAct("next_mistake")]).sent, [{ action: "review", index: 4 }]);
  const last = run(modelOf({ status: "lost", reviewing: reviewing(4) }), [keyAct("next_mistake"), keyAct("history_forward")]);
  assert.deepEqual(last.sent, []);
  assert.equal(last.ui.speech.text, "the review is at its last move", "a key that cannot move says why");
  assert.deepEqual(run(open, [keyAct("review")]).sent, [{ action: "live" }]);
  assert.ok(takesKey({ action: "escape" }, initialUi(), open), "Esc closes the review");
  assert.deepEqual(run(open, [keyAct("escape")]).sent, [{ action: "live" }]);
  assert.deepEqual(run(open, [{ type: "review", step: "previous" }]).sent, [{ action: "review", index: 1 }], "the buttons too");
});

test("a reviewed move puts the cursor on its cell, once", () => {
  const open = modelOf({ status: "lost", reviewing: reviewing(2) });
  const first = run(open, [{ type: "model" }]);
  assert.deepEqual(first.ui.cursor, { row: 1, col: 2 });
  assert.ok(first.effects.some((e) => e.type === "showCell" && e.row === 1 && e.col === 2));
  const again = run(open, [{ type: "model" }], { ...first.ui, cursor: { row: 4, col: 4 } });
  assert.deepEqual(again.ui.cursor, { row: 4, col: 4 }, "the player's own moves of the cursor are kept");
});

test("L asks Python for the link, then copies it on this page's own site, and says so", () => {
  const model = modelOf({ status: "playing" });
  const asked = run(model, [keyAct("link"), { type: "sent", tag: "link", id: 7 }], initialUi(0, "http://10.0.0.2:8000/"));
  assert.deepEqual(asked.sent, [{ action: "link" }]);
  const url = "http://127.0.0.1:8000/lab/index.html?path=shared-game.ipynb#game=1.x";
  const answered = modelOf({ status: "playing", handled: 7, shared_link: { mode: "moves", url } });
  const copied = run(answered, [{ type: "model" }], asked.ui);
  assert.deepEqual(copied.effects.find((e) => e.type === "copyLink"), {
    type: "copyLink",
    url: "http://10.0.0.2:8000/lab/index.html?path=shared-game.ipynb#game=1.x",
    mode: "moves",
  });
  assert.equal(run(answered, [{ type: "copied", ok: true, link: "moves" }]).ui.speech.text, "copied a link to this game's moves");
  const refused = modelOf({ status: "playing", handled: 7, error: "this game has no seed" });
  assert.ok(!run(refused, [{ type: "model" }], asked.ui).effects.some((e) => e.type === "copyLink"), "the error line says why");
  assert.deepEqual(run(modelOf({ status: "playing" }), [{ type: "linkButton" }]).sent, [{ action: "link" }]);
});

test("a widget of the shared-game notebook sends its page's game once, when a kernel answers", () => {
  const waiting = modelOf({ status: "ready", awaits_link: true });
  const first = run(waiting, [{ type: "model" }]);
  assert.deepEqual(first.effects.filter((e) => e.type === "sendPageLink").length, 1);
  assert.deepEqual(run(waiting, [{ type: "model" }], first.ui).effects.filter((e) => e.type === "sendPageLink"), []);
  const probing = run(waiting, [{ type: "probe" }, { type: "sent", tag: "probe", id: 1 }]);
  assert.ok(!run(waiting, [{ type: "model" }], probing.ui).effects.some((e) => e.type === "sendPageLink"), "not before the probe");
  assert.ok(!run(modelOf({ status: "ready" }), [{ type: "model" }]).effects.some((e) => e.type === "sendPageLink"));
  assert.deepEqual(run(waiting, [keyAct("link")]).sent, [], "no link of a game not opened yet");
});
