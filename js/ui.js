// The front end's own state (what Python does not know: cursor, flag mode, the press being followed, open
// panels, the picker's form, the scroll window) and its pure reducer: update(ui, msg, model) returns the
// next UI state and the effects to perform, as data. js/widget.js performs them (requests, settings, focus,
// scrolling, timers); `node --test js/` tests the reducer with plain objects.
import { cellMessage, isOver, moveCursor } from "./helpers.js";
import { cellSize, pickerLevel, pickerRequest, scrubTarget, zoomStep } from "./features.js";
import { driftedAway, longPressAction, longPressable, pressEnd, pressStart } from "./input.js";
import { shownIndex } from "./model.js";

/**
 * @typedef {import("./model.js").Model} Model
 * @typedef {import("./input.js").Press & {id: number}} Press
 * @typedef {{level: string, rows: string, cols: string, mines: string, firstClick: string}} PickerForm
 * @typedef {{top: number, left: number, width: number, height: number}} Scroll
 * @typedef {{
 *   cursor: {row: number, col: number}, kbd: boolean, flagMode: boolean, press: Press | null, pressSeq: number,
 *   panels: {picker: boolean, stats: boolean, help: boolean}, form: PickerForm, pickerError: string,
 *   pickerWaitsFor: number, scrubId: number, scroll: Scroll, width: number, live: boolean,
 *   copied: string, now: number, hintKey: string, settled: boolean,
 * }} UI
 * @typedef {{type: string, [key: string]: any}} Msg
 * @typedef {{type: string, [key: string]: any}} Effect
 * @typedef {[UI, Effect[]]} Step
 */

/** The UI state of a new view. */
export function initialUi(now = 0) {
  return /** @type {UI} */ ({
    cursor: { row: 0, col: 0 },
    kbd: false,
    flagMode: false,
    press: null,
    pressSeq: 0,
    panels: { picker: false, stats: false, help: false },
    form: { level: "intermediate", rows: "16", cols: "16", mines: "40", firstClick: "opening" },
    pickerError: "",
    pickerWaitsFor: 0,
    scrubId: 0,
    scroll: { top: 0, left: 0, width: 0, height: 0 },
    width: 0,
    live: true,
    copied: "",
    now,
    hintKey: "",
    settled: false,
  });
}

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
  };
}

const send = (request, tag = "") => ({ type: "send", request, tag });

/** The request a cell action sends, when cells may act (Python refuses them after the end anyway). */
function cellRequest(model, ui, action, idx) {
  if (!action || idx < 0 || !controls(model, ui).cells) return [];
  return [send({ action, row: Math.floor(idx / model.cols), col: idx % model.cols })];
}

/** A pointer went down on cell `idx`: move the cursor there, start following the press. */
function pointerDown(ui, msg, model) {
  if (!ui.live || model.problem || msg.idx < 0) return /** @type {Step} */ ([ui, []]);
  const cursor = { row: Math.floor(msg.idx / model.cols), col: msg.idx % model.cols };
  let next = { ...ui, cursor, kbd: false, press: null };
  /** @type {Effect[]} */
  const effects = [{ type: "focus" }, { type: "cancelLongPress" }];
  if (isOver(model.status)) return /** @type {Step} */ ([next, effects]);
  const ch = model.cells[msg.idx];
  const start = pressStart(msg, ch);
  effects.push(...cellRequest(model, ui, start.action, msg.idx));
  if (!start.press) return /** @type {Step} */ ([next, effects]);
  const press = { ...start.press, id: ui.pressSeq + 1 };
  next = { ...next, press, pressSeq: press.id };
  if (press.kind === "touch" && longPressable(ch, ui.flagMode)) effects.push({ type: "startLongPress", id: press.id });
  effects.push({ type: "capture" });
  return /** @type {Step} */ ([next, effects]);
}

/** The pointer moved: a finger that drifts is a scroll (nothing happens); a mouse follows the cell under it. */
function pointerMove(ui, msg) {
  const press = ui.press;
  if (!press) return /** @type {Step} */ ([ui, []]);
  if (driftedAway(press, msg.x, msg.y)) return /** @type {Step} */ ([{ ...ui, press: null }, [{ type: "cancelLongPress" }]]);
  if (press.kind === "touch" || msg.idx === press.idx) return /** @type {Step} */ ([ui, []]);
  return /** @type {Step} */ ([{ ...ui, press: { ...press, idx: msg.idx } }, []]);
}

/** The pointer came up: the press's action, if it ended where it started. */
function pointerUp(ui, msg, model) {
  const press = ui.press;
  if (!press) return /** @type {Step} */ ([ui, []]);
  const idx = press.kind === "touch" ? press.idx : msg.idx;
  const action = idx >= 0 ? pressEnd(press, idx, msg.button, model.cells[idx], ui.flagMode) : null;
  return /** @type {Step} */ ([{ ...ui, press: null }, [{ type: "cancelLongPress" }, ...cellRequest(model, ui, action, idx)]]);
}

/** The long-press timer of press `id` fired while the finger is still down: the other action than a tap. */
function longPress(ui, msg, model) {
  const press = ui.press;
  if (!press || press.id !== msg.id || press.fired) return /** @type {Step} */ ([ui, []]);
  const action = longPressAction(model.cells[press.idx], ui.flagMode);
  return /** @type {Step} */ ([{ ...ui, press: { ...press, fired: true } }, [{ type: "vibrate" }, ...cellRequest(model, ui, action, press.idx)]]);
}

/** Step through the history by `delta` boards (a request only when it moves). */
function scrub(ui, model, delta) {
  const index = scrubTarget(model.viewing, model.historyLength, delta);
  if (!ui.live || index === shownIndex(model)) return /** @type {Step} */ ([ui, []]);
  return /** @type {Step} */ ([ui, [send({ action: "scrub", index }, "scrub")]]);
}

/** Esc: close what is open, and go back to the live game. */
function escape(ui, model) {
  const panels = { picker: false, stats: false, help: false };
  const effects = ui.panels.picker ? [{ type: "focus" }] : [];
  if (model.viewing >= 0 && ui.live) effects.push(send({ action: "live" }));
  return /** @type {Step} */ ([{ ...ui, panels, pickerWaitsFor: 0 }, effects]);
}

/** Whether the board takes key action `act` (else the host, e.g. JupyterLab's shortcuts, gets the key). */
export function takesKey(act, ui, model) {
  if (!act) return false;
  if (act.action !== "escape") return true;
  return ui.panels.picker || ui.panels.stats || ui.panels.help || model.viewing >= 0;
}

/** A key the board takes (see helpers.js keyAction). */
function key(ui, act, model) {
  if (act.action === "copy") return /** @type {Step} */ ([ui, [{ type: "copy" }]]);
  if (act.action === "help") return togglePanel(ui, "help");
  if (act.action === "escape") return escape(ui, model);
  if (!ui.live || model.problem) return /** @type {Step} */ ([ui, []]);
  const next = { ...ui, kbd: true };
  if (act.type !== "action") {
    const [row, col] = moveCursor([ui.cursor.row, ui.cursor.col], act, model.rows, model.cols);
    return /** @type {Step} */ ([{ ...next, cursor: { row, col } }, [{ type: "showCell", row, col }]]);
  }
  return keyAction(next, act.action, model);
}

/** The board's key actions that are not cursor moves. */
function keyAction(ui, action, model) {
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
    toggle_play: () => (can.play ? [send({ action: model.autoplaying ? "pause" : "play" })] : []),
  };
  if (action === "flag_mode") return can.flagMode ? /** @type {Step} */ ([{ ...ui, flagMode: !ui.flagMode }, []]) : /** @type {Step} */ ([ui, []]);
  if (action === "history_back" || action === "history_forward") return scrub(ui, model, action === "history_back" ? -1 : 1);
  return /** @type {Step} */ ([ui, table[action] ? table[action]() : []]);
}

/** The cursor, kept on the board when its shape changed. */
export function clampCursor(cursor, model) {
  return {
    row: Math.max(0, Math.min(model.rows - 1, cursor.row)),
    col: Math.max(0, Math.min(model.cols - 1, cursor.col)),
  };
}

function togglePanel(ui, name) {
  return /** @type {Step} */ ([{ ...ui, panels: { ...ui.panels, [name]: !ui.panels[name] } }, []]);
}

/** The game picker: open (filled from the game on screen), edit, start, close. */
function picker(ui, msg, model) {
  if (msg.type === "picker/toggle" && !ui.panels.picker) {
    const form = {
      level: pickerLevel(model.level),
      rows: String(model.rows),
      cols: String(model.cols),
      mines: String(model.mines),
      firstClick: model.firstClick,
    };
    const panels = { ...ui.panels, picker: true };
    return /** @type {Step} */ ([{ ...ui, panels, form, pickerError: "", pickerWaitsFor: 0 }, [{ type: "fillPicker", form }]]);
  }
  if (msg.type === "picker/toggle" || msg.type === "picker/close") {
    return /** @type {Step} */ ([{ ...ui, panels: { ...ui.panels, picker: false }, pickerWaitsFor: 0 }, [{ type: "focus" }]]);
  }
  if (msg.type === "picker/edit") {
    const custom = ["rows", "cols", "mines"].includes(msg.field);
    const form = { ...ui.form, [msg.field]: String(msg.value), ...(custom ? { level: "custom" } : {}) };
    return /** @type {Step} */ ([{ ...ui, form }, custom && ui.form.level !== "custom" ? [{ type: "fillPicker", form }] : []]);
  }
  const choice = pickerRequest({ ...ui.form });
  if (choice.error || !ui.live) return /** @type {Step} */ ([{ ...ui, pickerError: choice.error || "" }, []]);
  return /** @type {Step} */ ([{ ...ui, pickerError: "" }, [send(choice.request, "picker")]]);
}

/** A new hint: scroll its cell into view (on a big board it may be far from what is shown). */
function followHint(ui, model) {
  const hint = model.hintMove;
  const key = hint.action && Number.isInteger(hint.row) && Number.isInteger(hint.col) ? `${hint.action}@${hint.row},${hint.col}` : "";
  if (key === ui.hintKey) return /** @type {Step} */ ([ui, []]);
  return /** @type {Step} */ ([{ ...ui, hintKey: key }, key ? [{ type: "showCell", row: hint.row, col: hint.col }] : []]);
}

/** The model changed: a new hint comes into view; the picker closes once Python started its game, or
 * shows why it did not. */
function modelChanged(ui, model) {
  const [followed, effects] = followHint(ui, model);
  const [next, more] = pickerAnswered(followed, model);
  return /** @type {Step} */ ([next, [...effects, ...more]]);
}

function pickerAnswered(ui, model) {
  if (!ui.pickerWaitsFor || model.handled < ui.pickerWaitsFor) return /** @type {Step} */ ([ui, []]);
  if (model.error) {
    const pickerError = model.error.replace(/^ignored a message from the browser: /, "");
    return /** @type {Step} */ ([{ ...ui, pickerWaitsFor: 0, pickerError }, []]);
  }
  return /** @type {Step} */ ([{ ...ui, pickerWaitsFor: 0, panels: { ...ui.panels, picker: false } }, [{ type: "focus" }]]);
}

/** Messages that only set a field of the UI state. */
function plain(ui, msg, model) {
  switch (msg.type) {
    case "sent":
      if (msg.tag === "picker") return { ...ui, pickerWaitsFor: msg.id };
      return msg.tag === "scrub" ? { ...ui, scrubId: msg.id } : ui;
    case "scroll":
      return { ...ui, scroll: { top: msg.top, left: msg.left, width: msg.width, height: msg.height } };
    case "resize":
      return { ...ui, width: msg.width };
    case "settled":
      return ui.settled ? ui : { ...ui, settled: true };
    case "live":
      return msg.live === ui.live ? ui : { ...ui, live: msg.live, press: msg.live ? ui.press : null };
    case "tick":
      return { ...ui, now: msg.now };
    case "copied":
      return { ...ui, copied: msg.ok === null ? "" : msg.ok ? "yes" : "no" };
    case "flagMode":
      return controls(model, ui).flagMode ? { ...ui, flagMode: !ui.flagMode } : ui;
    default:
      return null;
  }
}

/** Requests and settings from the header and toolbar buttons. */
function command(ui, msg, model) {
  if (!ui.live) return /** @type {Step} */ ([ui, []]);
  switch (msg.type) {
    case "request":
      return /** @type {Step} */ ([ui, [send(msg.request, msg.tag || "")]]);
    case "setting":
      return /** @type {Step} */ ([ui, [{ type: "set", name: msg.name, value: msg.value }]]);
    case "zoom":
      return /** @type {Step} */ ([ui, [{ type: "set", name: "cell_size", value: zoomStep(drawnSize(model, ui), msg.direction) }]]);
    case "scrub":
      return scrub(ui, model, msg.delta);
    case "togglePlay":
      return /** @type {Step} */ ([ui, controls(model, ui).play ? [send({ action: model.autoplaying ? "pause" : "play" })] : []]);
    default:
      return null;
  }
}

/**
 * The reducer: the next UI state and the effects to perform, for message `msg`, given the synced `model`.
 * @param {UI} ui
 * @param {Msg} msg
 * @param {Model} model
 * @returns {Step}
 */
export function update(ui, msg, model) {
  const simple = plain(ui, msg, model);
  if (simple) return [simple, []];
  const commanded = command(ui, msg, model);
  if (commanded) return commanded;
  switch (msg.type) {
    case "pointerdown":
      return pointerDown(ui, msg, model);
    case "pointermove":
      return pointerMove(ui, msg);
    case "pointerup":
      return pointerUp(ui, msg, model);
    case "pointercancel":
      return [{ ...ui, press: null }, [{ type: "cancelLongPress" }]];
    case "longpress":
      return longPress(ui, msg, model);
    case "key":
      return key(ui, msg.act, model);
    case "panel":
      return togglePanel(ui, msg.name);
    case "model":
      return modelChanged(ui, model);
    default:
      if (msg.type.startsWith("picker/")) return picker(ui, msg, model);
      throw new Error(`unknown UI message ${JSON.stringify(msg.type)}`);
  }
}
