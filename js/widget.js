// The ipyminesweeper anywidget view: model -> update -> view, as the Python side is written.
//   js/wire.js  decodes the synced traitlets once into a plain object (the Model);
//   js/ui.js     the front end's own state and its pure reducer (which returns effects as data);
//   js/view.js   view(model, ui): everything on screen, derived;
//   js/dom.js, js/board.js   small renderers that write it; this file wires listeners, timers and effects.
// Every action is a request to Python, which owns the rules. Selectors are documented in js/README.md.
import { CONSTANTS } from "./constants.js";
import { keyOf, speedText, speedToDelay } from "./helpers.js";
import { boardText, gameInAddress, siteBase, wrapFocus } from "./features.js";
import { LONG_PRESS_MS } from "./input.js";
import { TRAITS, decodeModel, withRequest } from "./wire.js";
import { initialUi, onlyScrolled, takesKey, update } from "./ui.js";
import { gridView, view } from "./view.js";
import { inWindow, minimapTarget, scrollToShow } from "./grid.js";
import { elements, fillPicker, renderHeader, renderHistory, renderPanels, renderRoot, renderToolbar, setProp } from "./dom.js";
import { cellElement, cellId, cellIndexOf, createBoard, renderBoard } from "./board.js";
import { skeleton } from "./skeleton.js";
import { copyText, followTheme } from "./host.js";

export { CONSTANTS };

let instances = 0;

/** The widget's root element, with its markup, its ARIA role and its keyboard description. */
function createRoot(uid) {
  const root = document.createElement("div");
  root.className = "ipyms-root";
  root.tabIndex = 0;
  root.setAttribute("role", "application");
  root.setAttribute("aria-roledescription", "Minesweeper");
  root.setAttribute("aria-label", "Minesweeper");
  root.innerHTML = skeleton(uid);
  /** @type {HTMLElement} */ (root.querySelector(".ipyms-help")).id = `${uid}-help`;
  root.setAttribute("aria-describedby", `${uid}-help`);
  return root;
}

/**
 * One view's state and its loop: dispatch(msg) runs the reducer, performs the effects, and schedules one
 * repaint per microtask (the change events of one state message arrive together). The UI state (cursor,
 * press, panels, ...) is `ui`; `timers` holds the handles of the timers it asked for, by name.
 * @param {import("@anywidget/types").AnyModel<any>} model
 * @param {HTMLElement} root
 * @param {string} uid
 */
function createLoop(model, root, uid) {
  const els = elements(root);
  const loop = {
    model,
    root,
    els,
    board: createBoard(els, uid),
    decoded: decodeModel((k) => model.get(k)),
    ui: initialUi(Date.now(), siteBase(globalThis.location?.href)),
    /** @type {Map<string, {id: any, every: boolean}>} */ timers: new Map(),
    /** @type {{decoded: any, ui: any}} */ painted: { decoded: null, ui: null },
    showCell: -1,
    focusPicker: false,
    disposed: false,
    /** @type {(msg: import("./ui.js").Msg) => void} */ dispatch: () => {},
  };
  loop.dispatch = (msg) => {
    const queue = [msg];
    while (queue.length) {
      const [next, effects] = update(loop.ui, queue.shift(), loop.decoded);
      loop.ui = next;
      for (const effect of effects) perform(loop, effect, queue);
    }
    schedule(loop);
  };
  return loop;
}

/** @typedef {ReturnType<typeof createLoop>} Loop */

/** Start timer `name` (replacing one of that name): `f` after `ms`, or every `ms` when `every`. */
function startTimer(loop, name, ms, f, every = false) {
  stopTimer(loop, name);
  loop.timers.set(name, { id: every ? setInterval(f, ms) : setTimeout(f, ms), every });
}

function stopTimer(loop, name) {
  const timer = loop.timers.get(name);
  if (!timer) return;
  (timer.every ? clearInterval : clearTimeout)(timer.id);
  loop.timers.delete(name);
}

/**
 * Perform one effect of the reducer; messages it produces (an id sent) go into `queue`.
 * @param {Loop} loop
 * @param {import("./ui.js").Effect} effect
 * @param {import("./ui.js").Msg[]} queue
 */
function perform(loop, effect, queue) {
  const { model, root, els } = loop;
  switch (effect.type) {
    case "send": {
      if (!loop.ui.live && effect.tag !== "probe") return;
      const next = withRequest(model.get("requests"), loop.decoded.handled, loop.ui.lastId, effect.request);
      model.set("requests", next.requests);
      model.save_changes();
      queue.push({ type: "sent", tag: effect.tag, id: next.id });
      return;
    }
    case "set":
      model.set(effect.name, effect.value);
      model.save_changes();
      return;
    case "focus":
      root.focus({ preventScroll: true });
      return;
    case "fillPicker":
      fillPicker(els, effect.form);
      return;
    case "focusPicker": // once the repaint has shown it (a hidden element cannot take the focus)
      loop.focusPicker = true;
      return;
    case "showCell":
      scrollCellIntoView(loop, effect.row, effect.col, queue);
      return;
    case "later":
      startTimer(loop, effect.name, effect.ms, () => !loop.disposed && loop.dispatch(effect.msg));
      return;
    case "startLongPress":
      startTimer(loop, "longpress", LONG_PRESS_MS, () => loop.dispatch({ type: "longpress", id: effect.id }));
      return;
    case "cancelLongPress":
      stopTimer(loop, "longpress");
      return;
    case "capture":
      if (loop.ui.pointerId >= 0) els.board.setPointerCapture?.(loop.ui.pointerId);
      return;
    case "vibrate":
      navigator.vibrate?.(20);
      return;
    default:
      performShared(loop, effect, queue);
  }
}

/** The effects that copy (the board, a link) and that send the game of the page's address. */
function performShared(loop, effect, queue) {
  if (effect.type === "copy") copyBoard(loop, effect.speak);
  if (effect.type === "copyLink") {
    copyText(effect.url, loop.root).then((ok) => !loop.disposed && loop.dispatch({ type: "copied", ok, link: effect.mode }));
  }
  if (effect.type === "sendPageLink") {
    perform(loop, { type: "send", request: { action: "open_link", code: pageGame() }, tag: "page" }, queue);
  }
}

/** The shared game in this page's address: now, or as the page was opened (JupyterLite drops the fragment once
 * it has opened the notebook; the navigation entry keeps the address the page was opened with). */
function pageGame() {
  const opened = /** @type {any} */ (globalThis.performance?.getEntriesByType?.("navigation")?.[0])?.name;
  return gameInAddress([globalThis.location?.href, opened]);
}

async function copyBoard(loop, speak) {
  const { decoded } = loop;
  if (!decoded.cells) return;
  const ok = await copyText(boardText(decoded.cells, decoded.rows, decoded.cols), loop.root);
  loop.dispatch({ type: "copied", ok, speak });
  setTimeout(() => !loop.disposed && loop.dispatch({ type: "copied", ok: null }), 1500);
}

/** Where the board's visible area is, in board pixels: the scroll container's view less the board's offset. */
function measure(loop) {
  const { wrap, board } = loop.els;
  return {
    type: "scroll",
    top: wrap.scrollTop - board.offsetTop - board.clientTop,
    left: wrap.scrollLeft - board.offsetLeft - board.clientLeft,
    width: wrap.clientWidth,
    height: wrap.clientHeight,
  };
}

/** Scroll the board so that cell (row, col) is in view (the cursor, a hint); it is drawn at the next repaint. */
function scrollCellIntoView(loop, row, col, queue) {
  const { decoded, ui, els } = loop;
  if (decoded.problem || row < 0 || col < 0 || row >= decoded.rows || col >= decoded.cols) return;
  const g = gridView(decoded, ui);
  // the sticky labels cover the scroll box's top and left edges (0 when they are hidden)
  const inset = { top: els.colLabels.offsetHeight, left: els.rowLabels.offsetWidth };
  const to = scrollToShow(ui.scroll, g.pitch, row, col, inset);
  if (to) {
    els.wrap.scrollTop += to.top - ui.scroll.top;
    els.wrap.scrollLeft += to.left - ui.scroll.left;
    queue.push(measure(loop));
  }
  loop.showCell = row * decoded.cols + col; // and the page, after the repaint (scrollIntoView of the drawn cell)
}

/** One repaint per microtask, however many messages came in it. */
function schedule(loop) {
  if (loop.timers.has("paint") || loop.disposed) return;
  loop.timers.set("paint", { id: 0, every: false });
  queueMicrotask(() => {
    loop.timers.delete("paint");
    if (!loop.disposed) paint(loop);
  });
}

/**
 * Draw view(model, ui), then run the subscriptions it implies (the timer). A scroll redraws only the grid.
 * The grid waits until the root is in the page (its size decides what to draw; the ResizeObserver calls
 * again), and its margin comes after its first frame (see `settle`).
 */
function paint(loop) {
  const { els, decoded, ui } = loop;
  const scrolled = loop.painted.decoded === decoded && onlyScrolled(loop.painted.ui, ui);
  loop.painted = { decoded, ui };
  const active = /** @type {Document | ShadowRoot} */ (loop.root.getRootNode()).activeElement;
  const spec = scrolled ? { grid: decoded.problem ? null : gridView(decoded, ui) } : view(decoded, ui, { sliderFocused: active === els.slider });
  if (!scrolled) focusPicker(loop, spec.panels.picker.open);
  if (!scrolled) renderAround(loop, spec, active);
  if (spec.grid && (loop.root.isConnected || typeof ResizeObserver === "undefined")) {
    paintGrid(loop, spec.grid);
    settle(loop);
  }
  loop.showCell = -1;
}

/** The picker just opened: shown, and its first control focused, before its toggle says "expanded" (a screen
 * reader then hears the dialog, not the state of a button the focus has left). */
function focusPicker(loop, open) {
  if (loop.focusPicker && open) {
    setProp(loop.els.picker, "hidden", false);
    focusables(loop.els.picker)[0]?.focus({ preventScroll: true });
  }
  loop.focusPicker = false;
}

/** The picker's controls that Tab reaches, in order (of the level radios, the checked one). */
function focusables(picker) {
  const all = picker.querySelectorAll('input:not([type="radio"]), input[type="radio"]:checked, select, button');
  return /** @type {HTMLElement[]} */ ([...all].filter((el) => !el["disabled"] && el instanceof HTMLElement && el.offsetParent !== null));
}

/** The picker is a modal dialog: Tab past its last control comes back to its first, Shift+Tab the other way. */
function trapTab(loop, e, target) {
  const els = focusables(loop.els.picker);
  const to = wrapFocus(els.indexOf(target), els.length, e.shiftKey);
  if (to < 0) return;
  e.preventDefault();
  els[to].focus({ preventScroll: true });
}

/** Everything but the grid: the root's state, the header, toolbar, history line and panels; the timer. */
function renderAround(loop, spec, active) {
  const { els } = loop;
  renderRoot(els, spec);
  renderHeader(els, spec.header);
  renderToolbar(els, spec.toolbar, active === els.speed && loop.ui.speedHeld);
  renderHistory(els, spec.history);
  renderPanels(els, spec.panels);
  if (!spec.header.timerRunning) stopTimer(loop, "clock");
  else if (!loop.timers.has("clock")) startTimer(loop, "clock", 250, () => loop.dispatch({ type: "tick", now: Date.now() }), true);
}

/** The grid, the cursor's aria-activedescendant, and a cell asked to be shown. */
function paintGrid(loop, grid) {
  const { decoded, ui, board, root } = loop;
  renderBoard(board, grid, decoded.cells, { labelled: decoded.labels, scroll: ui.scroll });
  const cursorDrawn = inWindow(grid.window, Math.floor(grid.cursor / decoded.cols), grid.cursor % decoded.cols);
  if (cursorDrawn) root.setAttribute("aria-activedescendant", cellId(board, grid.cursor));
  else root.removeAttribute("aria-activedescendant");
  if (loop.showCell >= 0) cellElement(board, loop.showCell)?.scrollIntoView?.({ block: "nearest", inline: "nearest" });
}

/** Once the grid has been on screen for a frame, draw its margin (the cells just out of view, there for the
 * next scroll): the first frame waits only for the cells it shows, and the next one for nothing. */
function settle(loop) {
  if (loop.ui.settled || loop.timers.has("settle")) return;
  const later = () => !loop.disposed && loop.dispatch({ type: "settled" });
  requestAnimationFrame(() => requestAnimationFrame(() => startTimer(loop, "settle", 0, later)));
  loop.timers.set("settle", { id: 0, every: false });
}

/** Pointer events on the board (mouse, touch, pen), with pointer capture: the release arrives even outside
 * the board and inside a shadow root (marimo), where hit testing goes through the root node. */
function wirePointer(loop) {
  const { els, board, root, dispatch } = loop;
  const home = () => /** @type {Document | ShadowRoot} */ (root.getRootNode());
  const at = (x, y) => cellIndexOf(board, home().elementFromPoint?.(x, y) ?? null);
  const target = (e) => cellIndexOf(board, e.composedPath?.()[0] ?? e.target);
  els.board.addEventListener("pointerdown", (e) => {
    const idx = target(e);
    if (idx < 0) return;
    if (e.pointerType === "mouse") e.preventDefault(); // no text selection, no middle-click autoscroll
    const { pointerId, pointerType, button } = e;
    dispatch({ type: "pointerdown", idx, pointerType, button, x: e.clientX, y: e.clientY, pointerId });
  });
  els.board.addEventListener("pointermove", (e) => {
    if (loop.ui.press) dispatch({ type: "pointermove", idx: at(e.clientX, e.clientY), x: e.clientX, y: e.clientY });
  });
  els.board.addEventListener("pointerup", (e) => {
    if (loop.ui.press) dispatch({ type: "pointerup", idx: at(e.clientX, e.clientY), button: e.button });
  });
  els.board.addEventListener("pointercancel", () => dispatch({ type: "pointercancel" }));
  // Right click and a long touch: no browser menu, and no JupyterLab context menu (Lumino listens on document).
  els.board.addEventListener("contextmenu", (e) => {
    if (target(e) >= 0 || loop.ui.press) {
      e.preventDefault();
      e.stopPropagation();
    }
  });
}

/** A key the host keeps: combinations with Ctrl, Alt or Meta (Ctrl+S saves, Ctrl+Shift+C opens the
 * palette), Tab (focus moves on), function keys. Plain keys never reach the notebook's command mode. */
const hostKey = (e) => e.ctrlKey || e.metaKey || e.altKey || e.key === "Tab" || e.key === "Escape" || /^F\d+$/.test(e.key);

/** The keyboard: the board's keys go to the reducer; the host keeps its shortcuts (see hostKey). */
function wireKeys(loop) {
  const { root, els, dispatch } = loop;
  root.addEventListener("keydown", (e) => {
    const target = e.composedPath?.()[0] ?? e.target;
    const act = keyOf(e);
    // the statistics' box scrolls sideways on a narrow widget: focused, it keeps the keys that scroll it
    const scrolls = /^(Arrow|Page|Home$|End$)/.test(e.key) ? ", .ipyms-stats" : "";
    const control = target !== root && target instanceof Element ? target.closest(`button, select, input, label, summary${scrolls}`) : null;
    const inPicker = target instanceof Element && els.picker.contains(target);
    // A button keeps Space, Enter and Tab; inputs, selects and the picker keep every key.
    const native = e.key === " " || e.key === "Enter" || e.key === "Tab" || e.key === "Spacebar";
    if (control && (inPicker || !control.matches("button, summary") || native)) {
      if (inPicker && e.key === "Tab") trapTab(loop, e, control.closest("input, select, button") ?? control);
      if (inPicker && act?.action === "escape") {
        e.preventDefault();
        dispatch({ type: "pickerClose" });
      }
      if (!hostKey(e) || (inPicker && act?.action === "escape")) e.stopPropagation();
      return;
    }
    if (act?.action === "copy" && String(globalThis.getSelection?.() ?? "")) return; // copy the page's selection
    if (takesKey(act, loop.ui, loop.decoded)) {
      e.preventDefault();
      e.stopPropagation();
      dispatch({ type: "key", act });
    } else if (!hostKey(e)) {
      e.stopPropagation();
    }
  });
}

/** The header, toolbar, picker, history and panels: each control dispatches one message. */
function wireControls(loop) {
  const { els, dispatch, root } = loop;
  const on = (el, event, f) => el.addEventListener(event, f);
  const request = (action, tag = "") => () => dispatch({ type: "request", request: { action }, tag });
  on(els.face, "click", request("new_game"));
  on(els.step, "click", request("step"));
  on(els.undo, "click", request("undo"));
  on(els.hint, "click", request("hint"));
  on(els.cancel, "click", request("cancel"));
  on(els.resume, "click", request("resume"));
  on(els.toLive, "click", request("live"));
  on(els.play, "click", () => dispatch({ type: "togglePlay" }));
  on(els.flagMode, "click", () => dispatch({ type: "flagMode" }));
  on(els.back, "click", () => dispatch({ type: "scrub", delta: -1 }));
  on(els.forward, "click", () => dispatch({ type: "scrub", delta: 1 }));
  on(els.slider, "input", () => dispatch({ type: "request", request: { action: "scrub", index: Number(els.slider.value) }, tag: "scrub" }));
  on(els.zoomOut, "click", () => dispatch({ type: "zoom", direction: -1 }));
  on(els.zoomIn, "click", () => dispatch({ type: "zoom", direction: 1 }));
  on(els.copy, "click", () => dispatch({ type: "copyButton" }));
  // a cell that takes the focus (a screen reader back in focus mode on it) becomes the cursor
  on(els.board, "focusin", (e) => {
    const idx = cellIndexOf(loop.board, e.composedPath?.()[0] ?? e.target);
    if (idx >= 0) dispatch({ type: "focusCell", idx });
  });
  on(els.statsToggle, "click", () => dispatch({ type: "panel", name: "stats" }));
  wireReview(loop);
  on(els.helpToggle, "click", () => dispatch({ type: "panel", name: "help" }));
  const setting = (name, value) => dispatch({ type: "setting", name, value });
  on(els.speed, "input", () => {
    if (!loop.ui.speedHeld) dispatch({ type: "speedHeld", held: true });
    els.speedValue.textContent = speedText(speedToDelay(els.speed.value));
  });
  on(els.speed, "change", () => {
    dispatch({ type: "speedHeld", held: false });
    setting("delay", speedToDelay(els.speed.value));
  });
  on(els.strategy, "change", () => setting("strategy", els.strategy.value));
  on(els.probabilities, "change", () => setting("show_probabilities", els.probabilities.checked));
  on(els.marks, "change", () => setting("question_marks", els.marks.checked));
  on(els.labels, "change", () => setting("labels", els.labels.checked));
  // After a mouse click on the face or a toolbar button the board keeps the keyboard.
  on(root, "click", (e) => {
    const t = e.composedPath?.()[0] ?? e.target;
    if (e.detail > 0 && t instanceof Element && t.closest("button") && !els.picker.contains(t) && !t.closest(".ipyms-picker-toggle")) {
      root.focus({ preventScroll: true });
    }
  });
  wirePicker(loop);
}

/** The Review button and panel, and the Link button. */
function wireReview(loop) {
  const { els, dispatch } = loop;
  els.reviewToggle.addEventListener("click", () => dispatch({ type: "review", step: "toggle" }));
  els.review.close.addEventListener("click", () => dispatch({ type: "review", step: "toggle" }));
  for (const step of /** @type {const} */ (["previous", "next", "mistake"])) {
    els.review[step].addEventListener("click", () => dispatch({ type: "review", step }));
  }
  els.linkButton.addEventListener("click", () => dispatch({ type: "linkButton" }));
}

/** The game picker's controls. */
function wirePicker(loop) {
  const { els, dispatch } = loop;
  els.pickerToggle.addEventListener("click", () => dispatch({ type: "pickerToggle" }));
  els.pickerClose.addEventListener("click", () => dispatch({ type: "pickerClose" }));
  els.start.addEventListener("click", () => dispatch({ type: "pickerStart" }));
  for (const radio of els.picker.querySelectorAll('input[type="radio"]')) {
    radio.addEventListener("change", (e) => dispatch({ type: "pickerEdit", field: "level", value: e.target?.["value"] }));
  }
  els.firstClick.addEventListener("change", () => dispatch({ type: "pickerEdit", field: "firstClick", value: els.firstClick.value }));
  for (const [field, input] of Object.entries(els.custom)) {
    input.addEventListener("input", () => dispatch({ type: "pickerEdit", field, value: input.value }));
    input.addEventListener("keydown", (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Enter") dispatch({ type: "pickerStart" });
    });
  }
}

/** The scroll window, the available width, and the minimap's clicks. Returns the disposer. */
function wireScroll(loop, el) {
  const { els, dispatch } = loop;
  let frame = 0;
  const onScroll = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (!loop.disposed) dispatch(measure(loop));
    });
  };
  els.wrap.addEventListener("scroll", onScroll, { passive: true });
  const resize = () => {
    const labelled = loop.decoded.labels ? 28 : 0;
    const width = Math.max(0, (el.clientWidth || loop.root.parentElement?.clientWidth || 0) - 24 - labelled);
    if (width !== loop.ui.width) dispatch({ type: "resize", width });
    dispatch(measure(loop));
  };
  const observer = typeof ResizeObserver !== "undefined" ? new ResizeObserver(resize) : null;
  observer?.observe(el);
  els.minimapCanvas.addEventListener("pointerdown", (e) => {
    const g = gridView(loop.decoded, loop.ui);
    const box = els.minimapCanvas.getBoundingClientRect();
    const { width, height } = els.minimapCanvas;
    const to = minimapTarget(((e.clientX - box.left) * width) / box.width, ((e.clientY - box.top) * height) / box.height,
      loop.ui.scroll, g.pitch, loop.decoded.rows, loop.decoded.cols, width, height);
    els.wrap.scrollTop = to.top + els.board.offsetTop;
    els.wrap.scrollLeft = to.left + els.board.offsetLeft;
  });
  resize();
  return () => {
    observer?.disconnect();
    cancelAnimationFrame(frame);
  };
}

/** Is a kernel behind the model? Asked when the view is made and when the comm changes (ui.js: probe). */
function wireLive(loop) {
  const { model, dispatch } = loop;
  const check = () => !loop.disposed && dispatch({ type: "probe" });
  model.on("comm_live_update", check);
  model.on("comm:close", check);
  check();
  return () => {
    model.off("comm_live_update", check);
    model.off("comm:close", check);
  };
}

/** @type {import("@anywidget/types").Render<any>} */
function render({ model, el }) {
  const uid = `ipyms-${++instances}-${Math.random().toString(36).slice(2, 7)}`;
  const root = createRoot(uid);
  el.appendChild(root);
  const loop = createLoop(model, root, uid);
  const onChange = () => {
    loop.decoded = decodeModel((k) => model.get(k), loop.decoded);
    loop.dispatch({ type: "model" });
  };
  for (const t of TRAITS) model.on(`change:${t}`, onChange);
  wirePointer(loop);
  wireKeys(loop);
  wireControls(loop);
  const disposers = [wireScroll(loop, el), wireLive(loop), followTheme(el, loop.root)];
  loop.dispatch({ type: "model" }); // a saved state whose patch was missed asks for the whole board
  paint(loop);
  return () => {
    loop.disposed = true;
    for (const name of [...loop.timers.keys()]) stopTimer(loop, name);
    for (const dispose of disposers) dispose();
    for (const t of TRAITS) model.off(`change:${t}`, onChange);
    loop.root.remove();
  };
}

export default { render };
