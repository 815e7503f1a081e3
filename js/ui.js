// The front end's own state (what Python does not know: cursor, flag mode, the press being followed, open
// panels, the picker's form, the scroll window) and its pure reducer: update(ui, msg, model) returns the
// next UI state and the effects to perform, as data. js/widget.js performs them (requests, settings, focus,
// scrolling, timers); `node --test js/` tests the reducer with plain objects.
import { cellMessage, isOver, moveCursor } from "./helpers.js";
import { NO_TALLY, SPEAK_EVERY_MS, aroundSpeech, heardOf, modelSpeech, sameHeard, statusSpeech, tallied, tallySpeech } from "./announce.js";
import {
  KEY_HELP, LEVELS, cellSize, linkAddress, linkSpeech, pickerLevel, pickerRequest, pitchOf, reviewEdgeSpeech, reviewTarget,
  scrubTarget, zoomStep,
} from "./features.js";
import { driftedAway, longPressAction, longPressable, pressEnd, pressStart, timerOf } from "./input.js";
import { resyncWanted, shownIndex } from "./wire.js";
import { columnSpeech, nextOpenNumber, openNumberSpeech, rowSpeech } from "./scan.js";

/**
 * @typedef {import("./wire.js").Model} Model
 * @typedef {import("./wire.js").Request} Request
 * @typedef {import("./input.js").Press & {id: number}} Press
 * @typedef {{level: string, rows: string, cols: string, mines: string, firstClick: string}} PickerForm
 * @typedef {{top: number, left: number, width: number, height: number}} Scroll
 * @typedef {{type: "move", dr: number, dc: number} | {type: "home"} | {type: "end"} | {type: "first"} | {type: "last"}
 *   | {type: "page", dir: number} | {type: "action", action: string}} KeyAct
 * @typedef {{
 *   cursor: {row: number, col: number}, kbd: boolean, flagMode: boolean, press: Press | null, pressSeq: number,
 *   pointerId: number, panels: {picker: boolean, stats: boolean, help: boolean}, form: PickerForm,
 *   pickerError: string, pickerWaitsFor: number, safeWaitsFor: number, scrubId: number, lastId: number, resyncAsked: number, probeId: number,
 *   scroll: Scroll, width: number, live: boolean, copied: string, now: number, hintKey: string,
 *   settled: boolean, speedHeld: boolean, speech: {text: string, seq: number},
 *   heard: import("./announce.js").Heard | null, tally: import("./announce.js").Tally, speakLater: boolean,
 *   site: string, linkWaitsFor: number, pageLinkSent: boolean, reviewShown: string,
 * }} UI  `site`: the root of the offline site this page is on ("" elsewhere); `reviewShown`: the reviewed move
 *   the cursor was last put on
 * @typedef {{type: "pointerdown", idx: number, pointerType: string, button: number, x: number, y: number, pointerId?: number}
 *   | {type: "pointermove", idx: number, x: number, y: number}
 *   | {type: "pointerup", idx: number, button: number}
 *   | {type: "pointercancel"}
 *   | {type: "longpress", id: number}
 *   | {type: "key", act: KeyAct}
 *   | {type: "panel", name: "picker" | "stats" | "help"}
 *   | {type: "model"}
 *   | {type: "sent", tag: string, id: number}
 *   | {type: "scroll"} & Scroll
 *   | {type: "resize", width: number}
 *   | {type: "settled"}
 *   | {type: "probe"} | {type: "probeTimeout"}
 *   | {type: "tick", now: number}
 *   | {type: "speak"}
 *   | {type: "copied", ok: boolean | null, speak?: boolean, link?: string}
 *   | {type: "review", step: "previous" | "next" | "mistake" | "toggle"}
 *   | {type: "linkButton"}
 *   | {type: "copyButton"}
 *   | {type: "focusCell", idx: number}
 *   | {type: "flagMode"}
 *   | {type: "speedHeld", held: boolean}
 *   | {type: "request", request: Request, tag?: string}
 *   | {type: "setting", name: string, value: unknown}
 *   | {type: "zoom", direction: number}
 *   | {type: "scrub", delta: number}
 *   | {type: "togglePlay"}
 *   | {type: "pickerToggle"} | {type: "pickerClose"} | {type: "pickerStart"}
 *   | {type: "pickerEdit", field: string, value: string}} Msg
 * @typedef {{type: "send", request: Request, tag: string}
 *   | {type: "set", name: string, value: unknown}
 *   | {type: "focus"} | {type: "capture"} | {type: "vibrate"} | {type: "copy", speak: boolean} | {type: "cancelLongPress"}
 *   | {type: "fillPicker", form: PickerForm} | {type: "focusPicker"}
 *   | {type: "showCell", row: number, col: number}
 *   | {type: "startLongPress", id: number}
 *   | {type: "later", name: string, ms: number, msg: Msg}
 *   | {type: "copyLink", url: string, mode: string} | {type: "sendPageLink"}} Effect
 * @typedef {[UI, Effect[]]} Step
 */

/**
 * The UI state of a new view.
 * @returns {UI}
 */
export function initialUi(now = 0, site = "") {
  return {
    cursor: { row: 0, col: 0 },
    kbd: false,
    flagMode: false,
    press: null,
    pressSeq: 0,
    pointerId: -1,
    panels: { picker: false, stats: false, help: false },
    form: { level: "intermediate", rows: "16", cols: "16", mines: "40", firstClick: "opening" },
    pickerError: "",
    pickerWaitsFor: 0,
    safeWaitsFor: 0,
    scrubId: 0,
    lastId: 0,
    resyncAsked: 0,
    probeId: 0,
    scroll: { top: 0, left: 0, width: 0, height: 0 },
    width: 0,
    live: true,
    copied: "",
    now,
    hintKey: "",
    settled: false,
    speedHeld: false,
    speech: { text: "", seq: 0 },
    heard: null,
    tally: NO_TALLY,
    speakLater: false,
    site,
    linkWaitsFor: 0,
    pageLinkSent: false,
    reviewShown: "",
  };
}

/**
 * One step of the reducer: the next UI state and the effects to perform.
 * @param {UI} ui
 * @param {Effect[]} [effects]
 * @returns {Step}
 */
const step = (ui, effects = []) => [ui, effects];

/**
 * @param {Request} request
 * @returns {Effect}
 */
const send = (request, tag = "") => ({ type: "send", request, tag });

/** Did only the scroll position change from `before` to `after`? Then only the grid is drawn again. */
export function onlyScrolled(before, after) {
  if (!before || before === after || before.scroll === after.scroll) return false;
  return Object.keys(after).every((k) => k === "scroll" || before[k] === after[k]);
}

/** The cell size on screen: the zoom, or what fits the available width. */
export const drawnSize = (model, ui) => cellSize(model.cellSize, ui.width, model.cols);

/** Which controls may act now: the one rule the toolbar's disabled states and the keyboard both follow. */
export function controls(model, ui) {
  const over = isOver(model.status);
  const looking = model.viewing >= 0;
  const none = model.strategies.length === 0;
  const live = ui.live && !model.problem;
  return {
    live,
    play: live && !none && (model.autoplaying || (!over && !looking)),
    step: live && !over && !model.autoplaying && !looking && !none,
    hint: live && !over && !model.autoplaying && !looking && !none,
    undo: live && model.canUndo,
    flagMode: live && !over && !looking,
    cells: live && !over,
    review: live && over,
    link: live && !model.awaitsLink,
  };
}

/** The request a cell action sends, when cells may act (Python refuses them after the end anyway). */
function cellRequest(model, ui, action, idx) {
  if (!action || idx < 0 || !controls(model, ui).cells) return [];
  return [send({ action, row: Math.floor(idx / model.cols), col: idx % model.cols })];
}

/** A pointer went down on cell `idx`: move the cursor there, start following the press. */
function pointerDown(ui, msg, model) {
  if (!ui.live || model.problem || msg.idx < 0) return step(ui, []);
  const cursor = { row: Math.floor(msg.idx / model.cols), col: msg.idx % model.cols };
  let next = { ...ui, cursor, kbd: false, press: null, pointerId: msg.pointerId ?? -1 };
  /** @type {Effect[]} */
  const effects = [{ type: "focus" }, { type: "cancelLongPress" }];
  if (isOver(model.status)) return step(next, effects);
  const ch = model.cells[msg.idx];
  const start = pressStart(msg, ch);
  effects.push(...cellRequest(model, ui, start.action, msg.idx));
  if (!start.press) return step(next, effects);
  const press = { ...start.press, id: ui.pressSeq + 1 };
  next = { ...next, press, pressSeq: press.id };
  if (press.kind === "touch" && longPressable(ch, ui.flagMode)) effects.push({ type: "startLongPress", id: press.id });
  effects.push({ type: "capture" });
  return step(next, effects);
}

/** The pointer moved: a finger that drifts is a scroll (nothing happens); a mouse follows the cell under it. */
function pointerMove(ui, msg) {
  const press = ui.press;
  if (!press) return step(ui, []);
  if (driftedAway(press, msg.x, msg.y)) return step({ ...ui, press: null }, [{ type: "cancelLongPress" }]);
  if (press.kind === "touch" || msg.idx === press.idx) return step(ui, []);
  return step({ ...ui, press: { ...press, idx: msg.idx } }, []);
}

/** The pointer came up: the press's action, if it ended where it started. */
function pointerUp(ui, msg, model) {
  const press = ui.press;
  if (!press) return step(ui, []);
  const idx = press.kind === "touch" ? press.idx : msg.idx;
  const action = idx >= 0 ? pressEnd(press, idx, msg.button, model.cells[idx], ui.flagMode) : null;
  return step({ ...ui, press: null }, [{ type: "cancelLongPress" }, ...cellRequest(model, ui, action, idx)]);
}

/** The long-press timer of press `id` fired while the finger is still down: the other action than a tap. */
function longPress(ui, msg, model) {
  const press = ui.press;
  if (!press || press.id !== msg.id || press.fired) return step(ui, []);
  const action = longPressAction(model.cells[press.idx], ui.flagMode);
  return step({ ...ui, press: { ...press, fired: true } }, [{ type: "vibrate" }, ...cellRequest(model, ui, action, press.idx)]);
}

/** Step through the history by `delta` boards (a request only when it moves); with the review open, through the
 * review's moves. */
function scrub(ui, model, delta) {
  if (model.review.open) return reviewStep(ui, model, delta < 0 ? "previous" : "next");
  const index = scrubTarget(model.viewing, model.historyLength, delta);
  if (!ui.live || index === shownIndex(model)) return step(ui, []);
  return step(ui, [send({ action: "scrub", index }, "scrub")]);
}

/** Esc: close what is open, and go back to the live game. */
function escape(ui, model) {
  const panels = { picker: false, stats: false, help: false };
  /** @type {Effect[]} */
  const effects = ui.panels.picker ? [{ type: "focus" }] : [];
  if ((model.viewing >= 0 || model.review.open) && ui.live) effects.push(send({ action: "live" }));
  return step({ ...ui, panels, pickerWaitsFor: 0 }, effects);
}

/** Whether the board takes key action `act` (else the host, e.g. JupyterLab's shortcuts, gets the key). */
export function takesKey(act, ui, model) {
  if (!act) return false;
  if (act.action !== "escape") return true;
  return ui.panels.picker || ui.panels.stats || ui.panels.help || model.viewing >= 0 || model.review.open;
}

/** The rows PageUp and PageDown move: a view of rows less one (the last row seen stays in sight), 8 before the
 * first layout. */
export function pageRows(model, ui) {
  const pitch = pitchOf(drawnSize(model, ui));
  return ui.scroll.height > 0 ? Math.max(1, Math.floor(ui.scroll.height / pitch) - 1) : 8;
}

/** A key the board takes (see helpers.js keyOf). */
function key(ui, act, model) {
  if (act.action === "copy") return step(ui, [{ type: "copy", speak: true }]);
  if (act.action === "help") return step(say(togglePanel(ui, "help")[0], ui.panels.help ? "help closed" : HELP_SPEECH));
  if (act.action === "escape") return escape(ui, model);
  if (!ui.live || model.problem) return step(ui, []);
  const next = { ...ui, kbd: true };
  if (act.type !== "action") {
    const [row, col] = moveCursor([ui.cursor.row, ui.cursor.col], act, model.rows, model.cols, pageRows(model, ui));
    return step({ ...next, cursor: { row, col } }, [{ type: "showCell", row, col }]);
  }
  return keyCommand(next, act.action, model);
}

/** The keys and what they do, as `?` says them (the help panel's list, KEY_HELP, in one utterance). */
export const HELP_SPEECH = `Keys: ${KEY_HELP.map(([k, what]) => `${k}: ${what}`).join("; ")}.`;

/** What G says: flag mode is for the pointer (the keyboard has F). */
export const flagModeSpeech = (on) => (on ? "flag mode on: clicks and taps flag" : "flag mode off: clicks and taps reveal");

/** The board's key actions that send a request: the cursor's cell, or the whole game. */
function keyRequest(ui, action, model) {
  const can = controls(model, ui);
  const { row, col } = clampCursor(ui.cursor, model);
  /** @type {Record<string, () => Effect[]>} */
  const table = {
    reveal: () => (can.cells ? [send(cellMessage("reveal", row, col, model.cells[row * model.cols + col]))] : []),
    flag: () => (can.cells ? [send({ action: "flag", row, col })] : []),
    chord: () => (can.cells ? [send({ action: "chord", row, col })] : []),
    new_game: () => [send({ action: "new_game" })],
    undo: () => [send({ action: "undo" })],
    step: () => (can.step ? [send({ action: "step" })] : []),
    hint: () => (can.hint ? [send({ action: "hint" })] : []),
    // the next certainly safe cell: Python's answer (a hint) moves the cursor there (safeAnswered)
    next_safe: () => (can.cells && !model.autoplaying && model.viewing < 0 ? [send({ action: "next_safe", row, col }, "safe")] : []),
    toggle_play: () => (can.play ? [send({ action: model.autoplaying ? "pause" : "play" })] : []),
  };
  return step(ui, table[action] ? table[action]() : []);
}

/** The board's key actions that are not cursor moves. */
function keyCommand(ui, action, model) {
  const can = controls(model, ui);
  const { row, col } = clampCursor(ui.cursor, model);
  const { cells, rows, cols } = model;
  if (action === "around") return step(say(ui, aroundSpeech(cells, rows, cols, row, col)));
  if (action === "status") return step(say(ui, statusSpeech(model.status, model.minesLeft, timerOf(model, ui).seconds)));
  if (action === "read_row") return step(say(ui, rowSpeech(cells, cols, row)));
  if (action === "read_column") return step(say(ui, columnSpeech(cells, rows, cols, col)));
  if (action === "next_number") return nextNumber(ui, model, row * cols + col);
  if (action === "flag_mode") return can.flagMode ? step(say({ ...ui, flagMode: !ui.flagMode }, flagModeSpeech(!ui.flagMode))) : step(ui);
  if (action === "history_back" || action === "history_forward") return scrub(ui, model, action === "history_back" ? -1 : 1);
  if (action === "review") return reviewStep(ui, model, "toggle");
  if (action === "next_mistake") return reviewStep(ui, model, "mistake");
  if (action === "link") return linkRequest(ui, model);
  return keyRequest(ui, action, model);
}

/** The review: E opens it (Python rates the moves the first time; while the game is on, Python's error line says
 * why there is none yet) or closes it (back to the game); [ ], the buttons and X step through its moves. A step
 * that cannot move says why. */
function reviewStep(ui, model, which) {
  if (which === "toggle") {
    if (model.review.open) return step(ui, [send({ action: "live" })]);
    return step(ui, ui.live && !model.problem ? [send({ action: "review" })] : []);
  }
  if (!ui.live || !model.review.open) return step(ui);
  const index = reviewTarget(model.review, which);
  if (index < 0) return step(say(ui, reviewEdgeSpeech(which)));
  return step(ui, [send({ action: "review", index })]);
}

/** L and the Link button: Python makes the link of the game; its answer is copied (linkAnswered). */
function linkRequest(ui, model) {
  return step(ui, controls(model, ui).link ? [send({ action: "link" }, "link")] : []);
}

/** J: the cursor to the next number that still has a covered cell around it (the screen reader says the
 * cell); when there is no other one, the live region says so. */
function nextNumber(ui, model, from) {
  const found = nextOpenNumber(model.cells, model.rows, model.cols, from);
  const why = openNumberSpeech(found, from);
  if (why) return step(say(ui, why));
  const cursor = { row: Math.floor(found / model.cols), col: found % model.cols };
  return step({ ...ui, cursor }, [{ type: "showCell", ...cursor }]);
}

/** The cursor, kept on the board when its shape changed. */
export function clampCursor(cursor, model) {
  return {
    row: Math.max(0, Math.min(model.rows - 1, cursor.row)),
    col: Math.max(0, Math.min(model.cols - 1, cursor.col)),
  };
}

function togglePanel(ui, name) {
  return step({ ...ui, panels: { ...ui.panels, [name]: !ui.panels[name] } }, []);
}

/** Open the game picker, filled from the game on screen, or close it. */
function pickerToggle(ui, model) {
  if (ui.panels.picker) return pickerClose(ui);
  /** @type {PickerForm} */
  const form = {
    level: pickerLevel(model.level),
    rows: String(model.rows),
    cols: String(model.cols),
    mines: String(model.mines),
    firstClick: model.firstClick,
  };
  const panels = { ...ui.panels, picker: true };
  return step({ ...ui, panels, form, pickerError: "", pickerWaitsFor: 0 }, [{ type: "fillPicker", form }, { type: "focusPicker" }]);
}

const pickerClose = (ui) => step({ ...ui, panels: { ...ui.panels, picker: false }, pickerWaitsFor: 0 }, [{ type: "focus" }]);

/** A field of the picker's form changed: typing a size picks Custom, and a level shows its size. */
function pickerEdit(ui, field, value) {
  const custom = ["rows", "cols", "mines"].includes(field);
  let form = { ...ui.form, [field]: String(value), ...(custom ? { level: "custom" } : {}) };
  const level = field === "level" ? LEVELS[String(value)] : undefined;
  if (level) form = { ...form, rows: String(level[0]), cols: String(level[1]), mines: String(level[2]) };
  const refill = (custom && ui.form.level !== "custom") || !!level;
  return step({ ...ui, form }, refill ? [{ type: "fillPicker", form }] : []);
}

/** Start the picker's game, or say why it cannot start. */
function pickerStart(ui) {
  const choice = pickerRequest({ ...ui.form });
  if (choice.error || !ui.live) return step({ ...ui, pickerError: choice.error || "" });
  return step({ ...ui, pickerError: "" }, [send(choice.request, "picker")]);
}

/** A new hint: scroll its cell into view (on a big board it may be far from what is shown). */
function followHint(ui, model) {
  const hint = model.hintMove;
  const key = hint.action && Number.isInteger(hint.row) && Number.isInteger(hint.col) ? `${hint.action}@${hint.row},${hint.col}` : "";
  if (key === ui.hintKey) return step(ui);
  return step({ ...ui, hintKey: key }, key ? [{ type: "showCell", row: hint.row, col: hint.col }] : []);
}

/** The model changed: a new hint comes into view; the picker closes once Python started its game, or shows
 * why it did not; a missed board patch asks for the whole board (once). */
function modelChanged(ui, model) {
  const [heard, said] = announce(probed(ui, model, false)[0], model);
  let [next, effects] = followHint(heard, model);
  effects.unshift(...said);
  for (const answer of [pickerAnswered, safeAnswered, linkAnswered, pageLink, followReview]) {
    const [after, more] = answer(next, model);
    next = after;
    effects.push(...more);
  }
  if (!resyncWanted(model, next.resyncAsked)) return step(next, effects);
  return step({ ...next, resyncAsked: model.missing }, [...effects, send({ action: "resync" })]);
}

function pickerAnswered(ui, model) {
  if (!ui.pickerWaitsFor || model.handled < ui.pickerWaitsFor) return step(ui);
  if (model.error) {
    const pickerError = model.error.replace(/^ignored a message from the browser: /, "");
    return step({ ...ui, pickerWaitsFor: 0, pickerError });
  }
  return step({ ...ui, pickerWaitsFor: 0, panels: { ...ui.panels, picker: false } }, [{ type: "focus" }]);
}

/** K was answered: the cursor goes to the hinted cell (the hint says why it is safe), unless Python said
 * why there is none (the error line says that). */
function safeAnswered(ui, model) {
  if (!ui.safeWaitsFor || model.handled < ui.safeWaitsFor) return step(ui);
  const hint = model.hintMove;
  const found = !model.error && Number.isInteger(hint.row) && Number.isInteger(hint.col);
  if (!found) return step({ ...ui, safeWaitsFor: 0 });
  const cursor = clampCursor({ row: Number(hint.row), col: Number(hint.col) }, model);
  return step({ ...ui, safeWaitsFor: 0, cursor, kbd: true }, [{ type: "showCell", ...cursor }]);
}

/** The link was made: copy it (the page's own site when it is the offline site), unless Python said why not. */
function linkAnswered(ui, model) {
  if (!ui.linkWaitsFor || model.handled < ui.linkWaitsFor) return step(ui);
  const next = { ...ui, linkWaitsFor: 0 };
  if (model.error || !model.link.url) return step(next);
  return step(next, [{ type: "copyLink", url: linkAddress(model.link.url, ui.site), mode: model.link.mode }]);
}

/** A widget made by `Minesweeper.from_page()` opens the game in its page's address, once, when a kernel answers. */
function pageLink(ui, model) {
  if (!model.awaitsLink || !ui.live || ui.probeId || ui.pageLinkSent) return step(ui);
  return step({ ...ui, pageLinkSent: true }, [{ type: "sendPageLink" }]);
}

/** A reviewed move comes on screen: the cursor goes to its cell (the arrows explore around it; the live region
 * says the verdict). */
function followReview(ui, model) {
  const move = model.review.move;
  const key = model.review.open && Number.isInteger(move.row) ? `${model.review.index}@${move.row},${move.col}` : "";
  if (key === ui.reviewShown) return step(ui);
  if (!key) return step({ ...ui, reviewShown: "" });
  const cursor = clampCursor({ row: Number(move.row), col: Number(move.col) }, model);
  return step({ ...ui, reviewShown: key, cursor }, [{ type: "showCell", ...cursor }]);
}

/** Say `text` in the live region (nothing when it is empty). */
function say(ui, text) {
  return text ? { ...ui, speech: { text, seq: ui.speech.seq + 1 } } : ui;
}

/** What the player hears of a new model: what changed since `ui.heard`. During autoplay the moves are counted
 * and said together by a timer, at most every SPEAK_EVERY_MS; the end of a game is said at once. */
function announce(ui, model) {
  const before = ui.heard;
  if (!before || !ui.live || model.problem) return step({ ...ui, heard: model.problem ? before : heardOf(model) });
  if (sameHeard(before, model)) return step(ui);
  const heard = heardOf(model);
  const ended = isOver(model.status) && model.status !== before.status;
  if (model.autoplaying && !ended && model.viewing < 0) {
    const next = { ...ui, heard, tally: tallied(ui.tally, before, model) };
    if (ui.speakLater) return step(next);
    return step({ ...next, speakLater: true }, [{ type: "later", name: "speak", ms: SPEAK_EVERY_MS, msg: { type: "speak" } }]);
  }
  // autoplay's moves not yet said come first (the last move of a game autoplay won is not one of them)
  const text = [tallySpeech(ui.tally, model.minesLeft), modelSpeech(before, model)].filter(Boolean).join(". ");
  return step(say({ ...ui, heard, tally: NO_TALLY }, text));
}

/** The autoplay summary's time came: say the moves counted since the last one. */
function speak(ui, model) {
  const next = { ...ui, speakLater: false, tally: NO_TALLY };
  return step(ui.tally.moves ? say(next, tallySpeech(ui.tally, model.minesLeft)) : next);
}

/** The board was copied (or not): the Copy button says so; Ctrl+C on the board says so too (`speak`). The
 * button's own "Copied" is what a screen reader hears on the button. A link copied (`link`: its mode) is said
 * whichever way it was asked for: L or the Link button. */
function copied(ui, ok, speak, link) {
  if (link) return step(say(ui, linkSpeech(link, !!ok)));
  const next = { ...ui, copied: ok === null ? "" : ok ? "yes" : "no" };
  if (!speak || ok === null) return step(next);
  return step(say(next, ok ? "copied the board as text" : "copy failed: the browser refused the clipboard"));
}

/** A cell took the focus (a screen reader leaving browse mode on it, a click): it is the cursor, and the root,
 * the board's one tab stop, takes the focus back, with the cell as its active descendant. Whether the cursor's
 * frame shows is left as it was (a mouse click hides it, a key shows it). */
function focusCell(ui, idx, model) {
  if (idx < 0 || idx >= model.rows * model.cols) return step(ui);
  const cursor = { row: Math.floor(idx / model.cols), col: idx % model.cols };
  return step({ ...ui, cursor }, [{ type: "focus" }]);
}

/** A request was written: its id, and what waits for its answer (the picker, the slider). */
function sent(ui, tag, id) {
  const next = { ...ui, lastId: Math.max(ui.lastId, id) };
  if (tag === "probe") return step({ ...next, probeId: id });
  if (tag === "picker") return step({ ...next, pickerWaitsFor: id });
  if (tag === "safe") return step({ ...next, safeWaitsFor: id });
  if (tag === "link") return step({ ...next, linkWaitsFor: id });
  return step(tag === "scrub" ? { ...next, scrubId: id } : next);
}

/** How long a view waits for the kernel's answer to its first request before it calls itself a snapshot. */
export const PROBE_MS = 4000;

/** Is a kernel behind the model? Ask (a `resync`, answered by any kernel); no answer: a snapshot (a saved
 * notebook reopened, an exported page), until one comes. */
const probe = (ui) =>
  step(ui, [send({ action: "resync" }, "probe"), { type: "later", name: "probe", ms: PROBE_MS, msg: { type: "probeTimeout" } }]);

/** The probe's answer came (live), or not in time (a snapshot: no press is followed). */
function probed(ui, model, timeout) {
  if (!ui.probeId) return step(ui);
  if (model.handled >= ui.probeId) return step({ ...ui, live: true, probeId: 0 });
  return step(timeout ? { ...ui, live: false, press: null } : ui);
}

/** What only a live view does (a snapshot has no kernel to ask). */
const whenLive = (ui, effects) => step(ui, ui.live ? effects : []);

/**
 * The reducer: the next UI state and the effects to perform, for message `msg`, given the synced `model`.
 * @param {UI} ui
 * @param {Msg} msg
 * @param {Model} model
 * @returns {Step}
 */
export function update(ui, msg, model) {
  const type = String(msg.type);
  switch (msg.type) {
    case "pointerdown": return pointerDown(ui, msg, model);
    case "pointermove": return pointerMove(ui, msg);
    case "pointerup": return pointerUp(ui, msg, model);
    case "pointercancel": return step({ ...ui, press: null }, [{ type: "cancelLongPress" }]);
    case "longpress": return longPress(ui, msg, model);
    case "key": return key(ui, msg.act, model);
    case "panel": return togglePanel(ui, msg.name);
    case "model": return modelChanged(ui, model);
    case "sent": return sent(ui, msg.tag, msg.id);
    case "scroll":
      return step({ ...ui, scroll: { top: msg.top, left: msg.left, width: msg.width, height: msg.height } });
    case "resize": return step({ ...ui, width: msg.width });
    case "settled": return step(ui.settled ? ui : { ...ui, settled: true });
    case "probe": return probe(ui);
    case "probeTimeout": return probed(ui, model, true);
    case "tick": return step({ ...ui, now: msg.now });
    case "speak": return speak(ui, model);
    case "copied": return copied(ui, msg.ok, !!msg.speak, msg.link || "");
    case "review": return reviewStep(ui, model, msg.step);
    case "linkButton": return linkRequest(ui, model);
    case "copyButton": return step(ui, [{ type: "copy", speak: false }]);
    case "focusCell": return focusCell(ui, msg.idx, model);
    case "flagMode": return step(controls(model, ui).flagMode ? { ...ui, flagMode: !ui.flagMode } : ui);
    case "speedHeld": return step({ ...ui, speedHeld: msg.held });
    case "request": return whenLive(ui, [send(msg.request, msg.tag || "")]);
    case "setting": return whenLive(ui, [{ type: "set", name: msg.name, value: msg.value }]);
    case "zoom":
      return whenLive(ui, [{ type: "set", name: "cell_size", value: zoomStep(drawnSize(model, ui), msg.direction) }]);
    case "scrub": return scrub(ui, model, msg.delta);
    case "togglePlay":
      return whenLive(ui, controls(model, ui).play ? [send({ action: model.autoplaying ? "pause" : "play" })] : []);
    case "pickerToggle": return pickerToggle(ui, model);
    case "pickerClose": return pickerClose(ui);
    case "pickerEdit": return pickerEdit(ui, msg.field, msg.value);
    case "pickerStart": return pickerStart(ui);
    default:
      throw new Error(`unknown UI message ${JSON.stringify(type)}`);
  }
}
