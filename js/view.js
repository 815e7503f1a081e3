// view(model, ui): everything the widget shows, derived from the synced model and the UI state. Pure: the
// renderers of js/dom.js and js/board.js only write what this returns. `node --test js/` tests it.
import { delayToSpeed, faceFor, formatCounter, isOver, NO_OVERLAY, speedText, statusMessage } from "./helpers.js";
import {
  describeGame, describeMove, historyText, isSmall, linkAddress, MAX_CELL, MIN_CELL, pitchOf, sliderFollows, statsRow,
} from "./features.js";
import { timerOf } from "./input.js";
import { shownIndex } from "./wire.js";
import { clampCursor, controls, drawnSize } from "./ui.js";
import { decorations, gridWindow, minimapSize, positionText } from "./grid.js";

/**
 * @typedef {import("./wire.js").Model} Model
 * @typedef {import("./ui.js").UI} UI
 */

/** The header, status line and errors. */
function headerView(model, ui) {
  const timer = timerOf(model, ui);
  const pressed = !!ui.press && ui.press.idx >= 0 && !ui.press.fired && !isOver(model.status);
  // A snapshot of a game not started does not invite a click that would do nothing.
  const invite = ui.live || model.status !== "ready";
  return {
    counter: formatCounter(model.minesLeft),
    // the LED is a picture of digits: its name is read when the screen reader gets there, never announced
    counterLabel: `${model.minesLeft} mine${model.minesLeft === 1 ? "" : "s"} left`,
    face: faceFor(model.status, pressed),
    faceDisabled: !ui.live,
    timer: formatCounter(timer.seconds),
    timerRunning: timer.running,
    message: invite ? statusMessage(model.status, timer.seconds, model.summary) : "",
    error: model.problem ? `Cannot show this board: ${model.problem}` : model.error,
    details: model.errorDetails,
    busy: model.busy,
    note: !ui.live,
    // the live region's text; a trailing no-break space on every other message, so that the same words
    // said again (a key pressed twice) are a change the screen reader reads
    announce: ui.speech.text + (ui.speech.seq % 2 ? "\u00a0" : ""),
  };
}

/** The toolbar: what each control shows and whether it may act. */
function toolbarView(model, ui) {
  const can = controls(model, ui);
  const size = drawnSize(model, ui);
  const move = model.hintMove.action ? describeMove(model.hintMove, "Hint: ") : describeMove(model.lastMove);
  return {
    step: !can.step,
    hint: !can.hint,
    undo: !can.undo,
    play: { disabled: !can.play, pressed: model.autoplaying, text: model.autoplaying ? "Pause" : "Play" },
    flagMode: { disabled: !can.flagMode, pressed: ui.flagMode },
    strategy: { options: model.strategies, value: model.strategy, disabled: !can.live || model.strategies.length === 0 },
    speed: { value: delayToSpeed(model.delay), text: speedText(model.delay), disabled: !can.live },
    probabilities: { checked: model.showProbabilities, disabled: !can.live },
    zoomOut: size <= MIN_CELL,
    zoomIn: size >= MAX_CELL,
    copy: ui.copied === "yes" ? "Copied" : ui.copied === "no" ? "Copy failed" : "Copy",
    reason: model.viewing < 0 && !model.review.open ? move : "",
    review: { disabled: !can.review, pressed: model.review.open },
    link: !can.link,
  };
}

/** The history slider and its line. `focused`: the slider has the focus (the player holds it). */
function historyView(model, ui, focused) {
  const index = shownIndex(model);
  const last = model.historyLength - 1;
  const pending = ui.scrubId > model.handled;
  const off = !ui.live || model.review.open; // the review steps through its own moves
  return {
    max: last,
    value: sliderFollows(focused, model.viewing, pending) ? index : null,
    disabled: off || last < 1,
    back: off || index <= 0,
    forward: off || index >= last,
    resume: !ui.live || model.viewing < 0,
    toLive: !ui.live || model.viewing < 0,
    text: historyText(index, model.historyLength, model.historyStep, model.viewing >= 0),
    viewing: model.viewing >= 0 ? String(model.viewing) : "",
  };
}

/** The game picker, the statistics and the help panel. */
function panelsView(model, ui) {
  return {
    picker: {
      open: ui.panels.picker,
      current: model.problem ? "" : `now: ${describeGame(model.rows, model.cols, model.mines, model.firstClick, model.level)}`,
      error: ui.pickerError,
      marks: model.questionMarks,
      labels: model.labels,
      disabled: !ui.live,
    },
    stats: { open: ui.panels.stats, rows: model.statsTable.map(statsRow), game: model.gameMetrics ? `This game: ${model.gameMetrics}` : "" },
    help: { open: ui.panels.help },
    review: reviewView(model, ui),
    link: model.link.url ? linkAddress(model.link.url, ui.site) : "",
  };
}

/** The solver's move of a reviewed move, in words: "the solver: reveal (2,2) · mine probability 0% — (2,2) is
 * safe: ...", and whether the move was as good. */
function bestText(move) {
  const best = move.best;
  if (!best || !best.action) return "";
  const verdict = move.good ? "as good as the solver's" : "not as good as the solver's";
  return `${verdict}. ${describeMove(best, "The solver: ")}`;
}

/** The Review panel: the summary at its top, the game's figures, the move shown, and what may move. */
function reviewView(model, ui) {
  const r = model.review;
  const live = ui.live && r.open;
  return {
    open: r.open,
    summary: r.open ? `Review: ${r.summary}` : "",
    metrics: r.metrics,
    position: r.count ? `move ${r.index + 1} of ${r.count}` : "no move",
    move: typeof r.move.text === "string" ? r.move.text : "",
    best: bestText(r.move),
    previous: !live || r.index <= 0,
    next: !live || r.index >= r.count - 1,
    mistake: !live || !r.mistakes.some((i) => i > r.index),
  };
}

/** The grid: its shape, cell size, the window of cells to draw, their decorations, the minimap. */
export function gridView(model, ui) {
  const size = drawnSize(model, ui);
  const pitch = pitchOf(size);
  const window = gridWindow(ui.scroll, pitch, model.rows, model.cols, ui.settled);
  // whether the board needs a minimap is the settled window's say: the first frame's (no margin yet)
  // would show one for two frames and then take it away, moving everything below the board
  const full = ui.settled ? window : gridWindow(ui.scroll, pitch, model.rows, model.cols, true);
  const whole = full.r0 === 0 && full.c0 === 0 && full.r1 === model.rows && full.c1 === model.cols;
  const cursor = clampCursor(ui.cursor, model);
  return {
    rows: model.rows,
    cols: model.cols,
    size,
    pitch,
    small: isSmall(size),
    window,
    decorations: decorations(model, ui),
    overlay: model.showProbabilities && !isOver(model.status) ? model.probabilities : NO_OVERLAY,
    cursor: cursor.row * model.cols + cursor.col,
    minimap: whole ? null : { ...minimapSize(model.rows, model.cols), position: positionText(ui.scroll, pitch, model.rows, model.cols) },
  };
}

/**
 * Everything the widget shows.
 * @param {Model} model
 * @param {UI} ui
 * @param {{sliderFocused?: boolean}} [focus] which control holds the focus (the slider follows Python only when it is not held)
 */
export function view(model, ui, focus = {}) {
  return {
    root: {
      status: model.status,
      live: String(ui.live),
      flagging: ui.flagMode,
      kbd: ui.kbd,
      labelled: model.labels,
      copied: ui.copied,
    },
    header: headerView(model, ui),
    toolbar: toolbarView(model, ui),
    history: historyView(model, ui, !!focus.sliderFocused),
    panels: panelsView(model, ui),
    grid: model.problem ? null : gridView(model, ui),
  };
}
