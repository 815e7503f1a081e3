// The ipyminesweeper anywidget view. Rendering is a pure function of the synced traitlets; every action is
// a message to Python, which owns the rules. Selectors are documented in js/README.md.
import {
  cellClass,
  cellLabel,
  cellMessage,
  cellText,
  changedIndices,
  decodeProbabilities,
  decodeView,
  delayToSpeed,
  elapsedSeconds,
  faceFor,
  formatCounter,
  formatPercent,
  isOver,
  keyAction,
  moveCursor,
  overlayText,
  pressedCells,
  probabilityColor,
  probabilityKind,
  speedToDelay,
  statusMessage,
} from "./helpers.js";
import {
  LONG_PRESS_MS,
  driftedAway,
  frozenSeconds,
  hostTheme,
  longPressAction,
  longPressable,
  luminance,
  pressEnd,
  pressStart,
  withRequest,
} from "./input.js";
import {
  FIRST_CLICKS,
  FIRST_CLICK_TEXT,
  KEY_HELP,
  LEVELS,
  STATS_HEADERS,
  boardText,
  cellSize,
  cellsOf,
  describeGame,
  describeMove,
  historyText,
  labelTexts,
  pickerLevel,
  pickerRequest,
  scrubTarget,
  sliderFollows,
  statsRow,
  zoomStep,
} from "./features.js";

const FACE_SVG = {
  smile:
    '<circle cx="12" cy="12" r="9.5"/><circle class="f" cx="8.6" cy="9.6" r="1.3"/><circle class="f" cx="15.4" cy="9.6" r="1.3"/>' +
    '<path class="l" d="M7.6 13.8q4.4 4.4 8.8 0"/>',
  pressed:
    '<circle cx="12" cy="12" r="9.5"/><circle class="f" cx="8.6" cy="9.2" r="1.4"/><circle class="f" cx="15.4" cy="9.2" r="1.4"/>' +
    '<ellipse class="f" cx="12" cy="15.4" rx="2" ry="2.4"/>',
  won:
    '<circle cx="12" cy="12" r="9.5"/><path class="f" d="M5 8.6h5.6l-.5 2.8q-.4 1.4-2 1.4H7.3q-1.6 0-2-1.4zM13.4 8.6H19l-.3 2.8q-.4 1.4-2 1.4h-.8q-1.6 0-2-1.4z"/>' +
    '<path class="l" d="M10.6 9.2h2.8"/><path class="l" d="M7.6 14.6q4.4 3.8 8.8 0"/>',
  lost:
    '<circle cx="12" cy="12" r="9.5"/><path class="l" d="M7.2 8l3 3m0-3l-3 3M13.8 8l3 3m0-3l-3 3"/>' +
    '<path class="l" d="M8 17.2q4-3.6 8 0"/>',
};

function faceMarkup(face) {
  return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${FACE_SVG[face]}</svg>`;
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

function skeleton(uid) {
  const levels = Object.entries(LEVELS)
    .map(([name, [r, c, m]]) =>
      `<label><input type="radio" name="${uid}-level" value="${name}"> ${name[0].toUpperCase()}${name.slice(1)} <small>${r}×${c}, ${m} mines</small></label>`)
    .join("");
  const policies = FIRST_CLICKS.map((p) => `<option value="${p}">${escapeHtml(FIRST_CLICK_TEXT[p])}</option>`).join("");
  const keys = KEY_HELP.map(([k, what]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(what)}</dd>`).join("");
  return `
  <div class="ipyms-header">
    <div class="ipyms-counter ipyms-led" role="status" aria-label="mines left">000</div>
    <div class="ipyms-face-group">
      <button type="button" class="ipyms-face" data-face="smile" aria-label="New game" title="New game, same settings (N)"></button>
      <button type="button" class="ipyms-btn ipyms-picker-toggle" aria-haspopup="dialog" aria-expanded="false" title="Choose a game: level, size, first click">Game &#9662;</button>
    </div>
    <div class="ipyms-timer ipyms-led" role="timer" aria-label="seconds">000</div>
  </div>
  <div class="ipyms-picker" role="dialog" aria-label="New game" hidden>
    <fieldset class="ipyms-levels"><legend>Level</legend>${levels}
      <label><input type="radio" name="${uid}-level" value="custom"> Custom</label>
      <span class="ipyms-custom">
        <label>rows <input type="number" class="ipyms-custom-rows" min="1" max="200" inputmode="numeric"></label>
        <label>columns <input type="number" class="ipyms-custom-cols" min="1" max="200" inputmode="numeric"></label>
        <label>mines <input type="number" class="ipyms-custom-mines" min="0" inputmode="numeric"></label>
      </span>
    </fieldset>
    <label class="ipyms-picker-line">First click <select class="ipyms-first-click">${policies}</select></label>
    <label class="ipyms-picker-line"><input type="checkbox" class="ipyms-question-marks"> "?" marks: a right click cycles flag, ?, covered</label>
    <label class="ipyms-picker-line"><input type="checkbox" class="ipyms-labels-toggle"> Row and column labels</label>
    <div class="ipyms-picker-line"><button type="button" class="ipyms-btn ipyms-start">Start</button>
      <button type="button" class="ipyms-btn ipyms-picker-close">Cancel</button>
      <span class="ipyms-picker-current"></span></div>
    <div class="ipyms-picker-error" role="alert"></div>
  </div>
  <div class="ipyms-board-wrap"><div class="ipyms-grid">
    <div class="ipyms-corner" aria-hidden="true"></div>
    <div class="ipyms-col-labels" aria-hidden="true"></div>
    <div class="ipyms-row-labels" aria-hidden="true"></div>
    <div class="ipyms-board" role="grid"></div>
  </div></div>
  <div class="ipyms-snapshot-note" role="note" hidden>snapshot: run the cell to play</div>
  <div class="ipyms-message" aria-live="polite"></div>
  <div class="ipyms-error" role="alert" hidden></div>
  <details class="ipyms-error-details" hidden><summary>Traceback of the strategy</summary><pre></pre></details>
  <div class="ipyms-history" role="group" aria-label="History">
    <button type="button" class="ipyms-btn ipyms-history-back" title="Back one move ([)" aria-label="Back one move">&#9664;</button>
    <input type="range" class="ipyms-history-slider" min="0" max="0" step="1" value="0" aria-label="Move shown">
    <button type="button" class="ipyms-btn ipyms-history-forward" title="Forward one move (])" aria-label="Forward one move">&#9654;</button>
    <button type="button" class="ipyms-btn ipyms-resume" title="Continue the game from this board: a new branch">Resume from here</button>
    <button type="button" class="ipyms-btn ipyms-live" title="Back to the live game (Esc)">Back to game</button>
    <div class="ipyms-history-text"></div>
  </div>
  <div class="ipyms-toolbar" role="toolbar" aria-label="Autoplayer">
    <span class="ipyms-toolbar-group" role="group" aria-label="Moves">
    <button type="button" class="ipyms-btn ipyms-flag-mode" aria-pressed="false" title="Flag mode: taps flag instead of revealing (G)">&#9873; Flag</button>
    <button type="button" class="ipyms-btn ipyms-undo" title="Undo the last move (U or Z)">Undo</button>
    <button type="button" class="ipyms-btn ipyms-hint" title="Show the strategy's next move without playing it (H)">Hint</button>
    <button type="button" class="ipyms-btn ipyms-step" title="Play one move of the strategy (S)">Step</button>
    <button type="button" class="ipyms-btn ipyms-play" aria-pressed="false" title="Play / pause the strategy (P)">Play</button>
    <label class="ipyms-speed-label" title="Autoplay speed">Speed <input type="range" class="ipyms-speed" min="0" max="100" step="1"></label>
    </span>
    <span class="ipyms-toolbar-group" role="group" aria-label="Strategy and view">
    <select class="ipyms-strategy" aria-label="Strategy" title="Strategy"></select>
    <label class="ipyms-prob-label" title="Overlay each covered cell's mine probability"><input type="checkbox" class="ipyms-probabilities"> Probabilities</label>
    <span class="ipyms-zoom" role="group" aria-label="Zoom">
      <button type="button" class="ipyms-btn ipyms-zoom-out" title="Smaller cells" aria-label="Zoom out">&minus;</button>
      <button type="button" class="ipyms-btn ipyms-zoom-in" title="Bigger cells" aria-label="Zoom in">+</button>
    </span>
    <button type="button" class="ipyms-btn ipyms-copy" title="Copy the board as text (Ctrl+C)">Copy</button>
    <button type="button" class="ipyms-btn ipyms-stats-toggle" aria-expanded="false" title="Games played, won, best times, streaks">Stats</button>
    <button type="button" class="ipyms-btn ipyms-help-toggle" aria-expanded="false" title="Keyboard help (?)">?</button>
    </span>
  </div>
  <div class="ipyms-reason" aria-live="polite"></div>
  <div class="ipyms-stats" hidden><table><thead><tr>${STATS_HEADERS.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody></tbody></table>
    <div class="ipyms-stats-note">Best times count only games won without help (no undo after a loss, hint, autoplayer move, board set from code, resume or overlay).</div></div>
  <div class="ipyms-help-panel" hidden><dl>${keys}</dl><p>Mouse: left click reveals, right click flags, a click on a number chords.
    Touch: tap reveals, hold a cell to flag it, tap a number to chord.</p></div>
  <div class="ipyms-help">Arrow keys move the cursor, Space or Enter reveals, F flags, C chords, H hints, N starts a new game,
    U or Z undoes, [ and ] step through the history, S steps the strategy, P plays or pauses it, G toggles flag mode,
    question mark shows every key. Right click flags; click a number to chord. On a touch screen: tap reveals, hold a
    cell to flag it, tap a number to chord.</div>
`;
}

let instances = 0;

// Touch the DOM only when something changed: on a 100x100 board every needless write costs a repaint.
function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
function setData(el, key, value) {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}
function setProp(el, key, value) {
  if (el[key] !== value) el[key] = value;
}

/**
 * The synced traitlets the view reads and writes (the Python side: src/ipyminesweeper/widget/).
 * @typedef {{
 *   rows: number, cols: number, mines: number, status: string, cells: string, mines_left: number,
 *   started_at: number, ended_at: number, elapsed: number, can_undo: boolean, summary: string,
 *   error: string, error_details: string, strategies: string[], strategy: string,
 *   last_move: Record<string, any>, show_probabilities: boolean, probabilities: Record<string, number>,
 *   autoplaying: boolean, delay: number, requests: {id: number, action: string, row?: number, col?: number}[],
 *   handled: number, first_click: string, level: string, hint_move: Record<string, any>,
 *   labels: boolean | null, cell_size: number, question_marks: boolean, marks: number[],
 *   history_length: number, viewing: number, history_step: Record<string, any>,
 *   stats_table: Record<string, any>[],
 * }} Model
 */

/** @type {import("@anywidget/types").Render<Model>} */
function render({ model, el }) {
  const uid = `ipyms-${++instances}-${Math.random().toString(36).slice(2, 7)}`;
  const root = document.createElement("div");
  root.className = "ipyms-root";
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "true");
  root.setAttribute("role", "application");
  root.setAttribute("aria-roledescription", "Minesweeper");
  root.setAttribute("aria-label", "Minesweeper");
  root.innerHTML = skeleton(uid);
  root.querySelector(".ipyms-help").id = `${uid}-help`;
  root.setAttribute("aria-describedby", `${uid}-help`);
  el.appendChild(root);

  const $ = (sel) => root.querySelector(sel);
  const counterEl = $(".ipyms-counter");
  const faceEl = $(".ipyms-face");
  const timerEl = $(".ipyms-timer");
  const boardEl = $(".ipyms-board");
  const messageEl = $(".ipyms-message");
  const errorEl = $(".ipyms-error");
  const detailsEl = $(".ipyms-error-details");
  const detailsText = detailsEl.querySelector("pre");
  const stepEl = $(".ipyms-step");
  const playEl = $(".ipyms-play");
  const speedEl = $(".ipyms-speed");
  const strategyEl = $(".ipyms-strategy");
  const probEl = $(".ipyms-probabilities");
  const undoEl = $(".ipyms-undo");
  const reasonEl = $(".ipyms-reason");
  const flagModeEl = $(".ipyms-flag-mode");
  const noteEl = $(".ipyms-snapshot-note");
  const pickerToggleEl = $(".ipyms-picker-toggle");
  const pickerEl = $(".ipyms-picker");
  const pickerErrorEl = $(".ipyms-picker-error");
  const pickerCurrentEl = $(".ipyms-picker-current");
  const firstClickEl = $(".ipyms-first-click");
  const customEls = { rows: $(".ipyms-custom-rows"), cols: $(".ipyms-custom-cols"), mines: $(".ipyms-custom-mines") };
  const marksEl = $(".ipyms-question-marks");
  const labelsEl = $(".ipyms-labels-toggle");
  const colLabelsEl = $(".ipyms-col-labels");
  const rowLabelsEl = $(".ipyms-row-labels");
  const sliderEl = $(".ipyms-history-slider");
  const backEl = $(".ipyms-history-back");
  const forwardEl = $(".ipyms-history-forward");
  const resumeEl = $(".ipyms-resume");
  const liveEl = $(".ipyms-live");
  const historyTextEl = $(".ipyms-history-text");
  const hintEl = $(".ipyms-hint");
  const zoomOutEl = $(".ipyms-zoom-out");
  const zoomInEl = $(".ipyms-zoom-in");
  const copyEl = $(".ipyms-copy");
  const statsToggleEl = $(".ipyms-stats-toggle");
  const statsEl = $(".ipyms-stats");
  const statsBody = statsEl.querySelector("tbody");
  const helpToggleEl = $(".ipyms-help-toggle");
  const helpPanelEl = $(".ipyms-help-panel");
  // The shadow root (marimo) or the document: where focus and hit testing live.
  const home = () => /** @type {Document | ShadowRoot} */ (root.getRootNode());

  // Render state (what the DOM currently shows).
  let view = null; // decoded view
  let shape = "";
  let cellEls = [];
  let shown = null; // the cells string the DOM shows
  let cursor = [0, 0];
  let cursorIdx = -1;
  let probShown = new Map();
  let pressedIdx = [];
  let press = null; // the pointer press being followed (input.js: pressStart)
  let longTimer = null;
  let flagMode = false;
  let live = true; // false: a saved copy with no kernel behind it (a snapshot)
  let lastId = 0;
  let scrubId = 0; // the id of the slider's last scrub request (see sliderFollows)
  let extra = new Map(); // index -> classes added on top of the cell's own (highlights, "?" marks)
  let drawnSize = 0; // the cell size on screen, in px
  let pickerWaitsFor = 0; // the id of the picker's new_game request, until Python answers it
  let statsShown = "";
  let face = "";
  let timer = null;
  let disposed = false;

  // Every request goes through the synced `requests` traitlet (see input.js: withRequest): marimo re-runs
  // the cells that read the widget when the front end writes a traitlet, and ids make resends harmless.
  const send = (msg) => {
    if (!live) return 0;
    const next = withRequest(model.get("requests"), Number(model.get("handled")) || 0, lastId, msg);
    lastId = next.id;
    model.set("requests", next.requests);
    model.save_changes();
    return next.id;
  };
  const setSetting = (name, value) => {
    if (!live) return;
    model.set(name, value);
    model.save_changes();
  };

  // ---------------------------------------------------------------- board construction (once per shape)
  function build() {
    const { rows, cols } = view;
    const parts = [];
    for (let r = 0; r < rows; r++) {
      parts.push(`<div class="ipyms-row" role="row" aria-rowindex="${r + 1}" data-row="${r}">`);
      for (let c = 0; c < cols; c++) {
        parts.push(
          `<div class="ipyms-cell" role="gridcell" id="${uid}-${r * cols + c}" aria-colindex="${c + 1}" data-row="${r}" data-col="${c}"></div>`,
        );
      }
      parts.push("</div>");
    }
    boardEl.innerHTML = parts.join("");
    boardEl.setAttribute("aria-rowcount", rows);
    boardEl.setAttribute("aria-colcount", cols);
    boardEl.dataset.rows = rows;
    boardEl.dataset.cols = cols;
    boardEl.style.setProperty("--ipyms-cols", cols);
    colLabelsEl.style.setProperty("--ipyms-cols", cols);
    colLabelsEl.innerHTML = labelTexts(cols).map((t) => `<span>${t}</span>`).join("");
    rowLabelsEl.innerHTML = labelTexts(rows).map((t) => `<span>${t}</span>`).join("");
    cellEls = Array.from(boardEl.querySelectorAll(".ipyms-cell"));
    shape = `${rows}x${cols}`;
    shown = null;
    extra = new Map();
    probShown = new Map();
    pressedIdx = [];
    endPress();
    cursor = [Math.min(cursor[0], rows - 1), Math.min(cursor[1], cols - 1)];
    cursorIdx = -1;
    fit();
  }

  function fit() {
    if (!view) return;
    const labelled = root.classList.contains("ipyms-labelled") ? 28 : 0;
    const avail = (el.clientWidth || root.parentElement?.clientWidth || 0) - 24 - labelled;
    const size = cellSize(Number(model.get("cell_size")) || 0, avail > 0 ? avail : 0, view.cols);
    if (size === drawnSize) return;
    drawnSize = size;
    root.style.setProperty("--ipyms-cell", `${size}px`);
    root.classList.toggle("ipyms-small", size < 20);
  }

  // ---------------------------------------------------------------- incremental updates
  function paintCell(i) {
    const ch = view.cells[i];
    const cell = cellEls[i];
    cell.className = cellClass(ch);
    cell.dataset.state = ch;
    cell.textContent = cellText(ch);
    const p = probShown.get(i);
    cell.setAttribute("aria-label", cellLabel(Math.floor(i / view.cols), i % view.cols, ch, p));
    if (i === cursorIdx) cell.classList.add("ipyms-cursor");
    if (p != null) cell.classList.add("ipyms-prob");
    const added = extra.get(i);
    if (added) {
      cell.classList.add(...added);
      if (ch === "." && added.includes("ipyms-marked")) cell.textContent = "?";
    }
  }

  function setCursor(r, c) {
    if (!view) return;
    cursor = [r, c];
    const i = r * view.cols + c;
    if (cursorIdx >= 0 && cellEls[cursorIdx]) cellEls[cursorIdx].classList.remove("ipyms-cursor");
    cursorIdx = i;
    cellEls[i].classList.add("ipyms-cursor");
    root.setAttribute("aria-activedescendant", cellEls[i].id);
  }

  function updateProbabilities() {
    const on = model.get("show_probabilities") && !isOver(view.status);
    const next = on ? decodeProbabilities(model.get("probabilities"), view.cells.length) : new Map();
    for (const i of probShown.keys()) {
      if (!next.has(i)) {
        const cell = cellEls[i];
        cell.classList.remove("ipyms-prob");
        cell.style.removeProperty("--ipyms-heat");
        cell.style.removeProperty("--ipyms-heat-dark");
        delete cell.dataset.probability;
        delete cell.dataset.pct;
        delete cell.dataset.prob;
        cell.removeAttribute("title");
      }
    }
    for (const [i, p] of next) {
      if (probShown.get(i) === p && cellEls[i].dataset.probability !== undefined) continue;
      const cell = cellEls[i];
      cell.classList.add("ipyms-prob");
      // both palettes: the CSS picks one by theme, so a theme switch needs no repaint
      cell.style.setProperty("--ipyms-heat", probabilityColor(p, "light"));
      cell.style.setProperty("--ipyms-heat-dark", probabilityColor(p, "dark"));
      cell.dataset.probability = String(p);
      cell.dataset.pct = overlayText(p);
      cell.dataset.prob = probabilityKind(p);
      cell.title = `mine probability ${formatPercent(p)}`;
    }
    const changed = new Set([...probShown.keys(), ...next.keys()]);
    probShown = next;
    for (const i of changed) {
      const ch = view.cells[i];
      cellEls[i].setAttribute("aria-label", cellLabel(Math.floor(i / view.cols), i % view.cols, ch, next.get(i)));
    }
  }

  // The cells a move is about: the move's own cell, the numbers its reason rests on and the cells they
  // constrain (two styles), and the player's "?" marks. The move is the history step on screen while looking
  // back, else the hint, else the autoplayer's last move.
  function updateHighlights() {
    const viewing = Number(model.get("viewing"));
    const hint = model.get("hint_move") || {};
    const last = model.get("last_move") || {};
    const move = viewing >= 0 ? model.get("history_step") || {} : hint.action ? hint : last;
    const next = new Map();
    const add = (i, cls) => next.set(i, [...(next.get(i) || []), cls]);
    for (const i of cellsOf(move.numbers, view.rows, view.cols)) add(i, "ipyms-why-number");
    for (const i of cellsOf(move.constrained, view.rows, view.cols)) add(i, "ipyms-why-cell");
    for (const i of cellsOf([[move.row, move.col]], view.rows, view.cols)) {
      add(i, viewing < 0 && hint.action ? "ipyms-hint-cell" : "ipyms-last-move");
    }
    for (const i of model.get("marks") || []) {
      if (Number.isInteger(i) && i >= 0 && i < view.cells.length && view.cells[i] === ".") add(i, "ipyms-marked");
    }
    const touched = new Set([...extra.keys(), ...next.keys()]);
    extra = next;
    for (const i of touched) paintCell(i);
    const text = viewing < 0 ? (hint.action ? describeMove(hint, "Hint: ") : describeMove(last)) : "";
    setText(reasonEl, text);
  }

  function updateHistory() {
    const length = Math.max(1, Number(model.get("history_length")) || 1);
    const viewing = Number(model.get("viewing"));
    const index = viewing < 0 ? length - 1 : viewing;
    setProp(sliderEl, "max", String(length - 1));
    const pending = scrubId > (Number(model.get("handled")) || 0);
    if (sliderFollows(home().activeElement === sliderEl, viewing, pending)) setProp(sliderEl, "value", String(index));
    setProp(sliderEl, "disabled", !live || length <= 1);
    setProp(backEl, "disabled", !live || index <= 0);
    setProp(forwardEl, "disabled", !live || index >= length - 1);
    setProp(resumeEl, "disabled", !live || viewing < 0);
    setProp(liveEl, "disabled", !live || viewing < 0);
    setText(historyTextEl, historyText(index, length, model.get("history_step")));
    setData(root, "viewing", viewing >= 0 ? String(viewing) : "");
  }

  function updateStats() {
    const rows = model.get("stats_table") || [];
    const key = JSON.stringify(rows);
    if (key === statsShown) return;
    statsShown = key;
    statsBody.replaceChildren(
      ...(rows.length ? rows : [null]).map((s) => {
        const tr = document.createElement("tr");
        for (const t of s ? statsRow(s) : ["no finished games yet"]) {
          const td = document.createElement("td");
          td.textContent = t;
          if (!s) td.colSpan = STATS_HEADERS.length;
          tr.appendChild(td);
        }
        return tr;
      }),
    );
  }

  function updatePicker() {
    const level = String(model.get("level") || "");
    const firstClick = String(model.get("first_click") || "opening");
    setText(pickerCurrentEl, `now: ${describeGame(view.rows, view.cols, model.get("mines"), firstClick, level)}`);
    setProp(marksEl, "checked", !!model.get("question_marks"));
    setProp(labelsEl, "checked", !!model.get("labels"));
    setProp(pickerToggleEl, "disabled", !live);
    if (pickerWaitsFor && Number(model.get("handled")) >= pickerWaitsFor) {
      pickerWaitsFor = 0;
      const error = model.get("error") || "";
      if (error) setText(pickerErrorEl, error.replace(/^ignored a message from the browser: /, ""));
      else closePicker();
    }
  }

  function openPicker() {
    const level = pickerLevel(String(model.get("level") || ""));
    for (const radio of pickerEl.querySelectorAll('input[type="radio"]')) radio.checked = radio.value === level;
    customEls.rows.value = String(view.rows);
    customEls.cols.value = String(view.cols);
    customEls.mines.value = String(model.get("mines"));
    firstClickEl.value = String(model.get("first_click") || "opening");
    setText(pickerErrorEl, "");
    pickerEl.hidden = false;
    pickerToggleEl.setAttribute("aria-expanded", "true");
    pickerEl.querySelector('input[type="radio"]:checked')?.focus({ preventScroll: true });
  }

  function closePicker() {
    if (pickerEl.hidden) return;
    pickerEl.hidden = true;
    pickerToggleEl.setAttribute("aria-expanded", "false");
    pickerWaitsFor = 0;
    root.focus({ preventScroll: true });
  }

  function startFromPicker() {
    const level = pickerEl.querySelector('input[type="radio"]:checked')?.value ?? "custom";
    const choice = pickerRequest({
      level,
      rows: customEls.rows.value,
      cols: customEls.cols.value,
      mines: customEls.mines.value,
      firstClick: firstClickEl.value,
    });
    if (choice.error) {
      setText(pickerErrorEl, choice.error);
      return;
    }
    setText(pickerErrorEl, "");
    pickerWaitsFor = send(choice.request);
  }

  function togglePanel(panel, toggle) {
    panel.hidden = !panel.hidden;
    toggle.setAttribute("aria-expanded", String(!panel.hidden));
  }

  async function copyBoard() {
    const text = boardText(view.cells, view.rows, view.cols);
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      const area = document.createElement("textarea"); // where the clipboard API is not allowed
      area.value = text;
      area.setAttribute("readonly", "");
      area.style.position = "fixed";
      area.style.opacity = "0";
      root.appendChild(area);
      area.select();
      try {
        ok = document.execCommand("copy");
      } catch {
        ok = false;
      }
      area.remove();
      root.focus({ preventScroll: true });
    }
    setData(root, "copied", ok ? "yes" : "no");
    setText(copyEl, ok ? "Copied" : "Copy failed");
    setTimeout(() => setText(copyEl, "Copy"), 1500);
  }

  function setFace(next) {
    if (next === face) return;
    face = next;
    faceEl.dataset.face = next;
    faceEl.innerHTML = faceMarkup(next);
  }

  function tick() {
    if (!view) return;
    const secs = elapsedSeconds(view.startedAt, view.endedAt, Date.now());
    setText(timerEl, formatCounter(secs));
    return secs;
  }

  function updateTimer() {
    if (!live) {
      if (timer) clearInterval(timer);
      timer = null;
      const secs = frozenSeconds(view.startedAt, view.endedAt, model.get("elapsed"));
      setText(timerEl, formatCounter(secs));
      return secs;
    }
    const running = view.status === "playing" && view.startedAt && !view.endedAt;
    if (running && !timer) timer = setInterval(tick, 250);
    if (!running && timer) {
      clearInterval(timer);
      timer = null;
    }
    return tick();
  }

  function updateToolbar() {
    const over = isOver(view.status);
    const auto = !!model.get("autoplaying");
    const names = model.get("strategies") || [];
    const current = model.get("strategy") || "";
    const have = Array.from(strategyEl.options, (o) => o.value);
    if (have.length !== names.length || have.some((n, i) => n !== names[i])) {
      strategyEl.replaceChildren(
        ...names.map((n) => {
          const o = document.createElement("option");
          o.value = n;
          o.textContent = n;
          return o;
        }),
      );
    }
    if (strategyEl.value !== current) strategyEl.value = current;
    const noStrategies = names.length === 0;
    const viewing = Number(model.get("viewing")) >= 0;
    setProp(stepEl, "disabled", !live || over || auto || viewing || noStrategies);
    setProp(hintEl, "disabled", !live || over || auto || viewing || noStrategies);
    setProp(zoomOutEl, "disabled", drawnSize <= 16);
    setProp(zoomInEl, "disabled", drawnSize >= 64);
    // looking back is read-only (Python refuses to play there): Play waits for the live game or a resume
    setProp(playEl, "disabled", !live || ((over || viewing) && !auto) || noStrategies);
    if (playEl.getAttribute("aria-pressed") !== String(auto)) playEl.setAttribute("aria-pressed", String(auto));
    setText(playEl, auto ? "Pause" : "Play");
    if (playEl.classList.contains("ipyms-active") !== auto) playEl.classList.toggle("ipyms-active", auto);
    setProp(strategyEl, "disabled", !live || noStrategies);
    if (home().activeElement !== speedEl) setProp(speedEl, "value", String(delayToSpeed(model.get("delay"))));
    setProp(speedEl, "disabled", !live);
    setProp(probEl, "checked", !!model.get("show_probabilities"));
    setProp(probEl, "disabled", !live);
    setProp(undoEl, "disabled", !live || !model.get("can_undo"));
    setProp(faceEl, "disabled", !live);
    setProp(flagModeEl, "disabled", !live || over || viewing);
    if (flagModeEl.getAttribute("aria-pressed") !== String(flagMode)) flagModeEl.setAttribute("aria-pressed", String(flagMode));
    if (flagModeEl.classList.contains("ipyms-active") !== flagMode) flagModeEl.classList.toggle("ipyms-active", flagMode);
    setProp(noteEl, "hidden", live);
    setData(root, "live", String(live));
  }

  function refresh() {
    if (disposed) return;
    let next;
    try {
      next = decodeView({
        rows: model.get("rows"),
        cols: model.get("cols"),
        cells: model.get("cells"),
        status: model.get("status"),
        mines_left: model.get("mines_left"),
        started_at: model.get("started_at"),
        ended_at: model.get("ended_at"),
      });
    } catch (err) {
      errorEl.hidden = false;
      errorEl.textContent = `Cannot show this board: ${err.message}`;
      return;
    }
    view = next;
    if (`${view.rows}x${view.cols}` !== shape) build();
    root.classList.toggle("ipyms-labelled", !!model.get("labels"));
    fit();
    for (const i of changedIndices(shown, view.cells)) paintCell(i);
    shown = view.cells;
    if (cursorIdx < 0) setCursor(cursor[0], cursor[1]);
    updateProbabilities();
    updateHighlights();
    updateHistory();
    updateStats();
    updatePicker();

    setData(root, "status", view.status);
    setText(counterEl, formatCounter(view.minesLeft));
    setFace(faceFor(view.status, press !== null && press.idx >= 0 && !isOver(view.status)));
    const secs = updateTimer();
    // A snapshot of a game not started does not invite a click that would do nothing.
    const message = live || view.status !== "ready" ? statusMessage(view.status, secs, model.get("summary") || "") : "";
    setText(messageEl, message);
    setData(messageEl, "status", view.status);
    const error = model.get("error") || "";
    setText(errorEl, error);
    setProp(errorEl, "hidden", !error);
    const details = model.get("error_details") || "";
    setText(detailsText, details);
    setProp(detailsEl, "hidden", !details);
    updateToolbar();
  }

  // Coalesce the change events of one state update (several traits arrive together) into one repaint.
  let queued = false;
  function schedule() {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      refresh();
    });
  }

  const TRAITS = [
    "rows", "cols", "cells", "status", "mines_left", "started_at", "ended_at", "error", "error_details",
    "summary", "strategies",
    "strategy", "last_move", "show_probabilities", "probabilities", "autoplaying", "delay", "can_undo",
    "elapsed", "hint_move", "labels", "cell_size", "question_marks", "marks", "history_length", "viewing",
    "history_step", "stats_table", "level", "first_click", "mines", "handled",
  ];
  for (const t of TRAITS) model.on(`change:${t}`, schedule);

  // ---------------------------------------------------------------- pointer: mouse, touch and pen
  // Pointer events with pointer capture: the release is delivered to the board even when it happens outside,
  // and hit testing goes through the root node (a shadow root in marimo), never through `event.target` seen
  // from `window` (retargeted to the shadow host there).
  const cellIndexOf = (target) => {
    const cell = /** @type {HTMLElement | null} */ (target instanceof Element ? target.closest(".ipyms-cell") : null);
    if (!cell || !boardEl.contains(cell)) return -1;
    return Number(cell.dataset.row) * view.cols + Number(cell.dataset.col);
  };
  const cellAt = (x, y) => {
    const hit = home().elementFromPoint?.(x, y) ?? null;
    return cellIndexOf(hit);
  };
  const eventCell = (e) => cellIndexOf(e.composedPath?.()[0] ?? e.target);

  function showPressed() {
    for (const i of pressedIdx) cellEls[i]?.classList.remove("ipyms-pressed");
    pressedIdx = [];
    if (press && press.idx >= 0 && !press.fired) {
      const [r, c] = [Math.floor(press.idx / view.cols), press.idx % view.cols];
      for (const [pr, pc] of pressedCells(r, c, view.cells, view.rows, view.cols, press.chording)) {
        const i = pr * view.cols + pc;
        cellEls[i].classList.add("ipyms-pressed");
        pressedIdx.push(i);
      }
    }
    setFace(faceFor(view.status, press !== null && press.idx >= 0 && !press.fired));
  }

  function clearLongPress() {
    if (longTimer) clearTimeout(longTimer);
    longTimer = null;
    for (const c of boardEl.querySelectorAll(".ipyms-holding")) c.classList.remove("ipyms-holding");
  }

  function endPress() {
    clearLongPress();
    press = null;
    if (view && cellEls.length) showPressed();
  }

  function act(action, idx) {
    if (!action || idx < 0 || isOver(view.status)) return;
    send({ action, row: Math.floor(idx / view.cols), col: idx % view.cols });
  }

  function onPointerDown(e) {
    if (!view || !live) return;
    const idx = eventCell(e);
    if (idx < 0) return;
    if (e.pointerType === "mouse") e.preventDefault(); // no text selection, no middle-click autoscroll
    root.focus({ preventScroll: true });
    root.classList.remove("ipyms-kbd");
    setCursor(Math.floor(idx / view.cols), idx % view.cols);
    if (isOver(view.status)) return;
    endPress();
    const start = pressStart({ pointerType: e.pointerType, button: e.button, idx, x: e.clientX, y: e.clientY }, view.cells[idx]);
    if (start.action) act(start.action, idx);
    if (!start.press) return;
    press = start.press;
    boardEl.setPointerCapture?.(e.pointerId);
    if (press.kind === "touch" && longPressable(view.cells[idx], flagMode)) {
      cellEls[idx].classList.add("ipyms-holding"); // the cue: a ring fills while the finger stays
      const held = press;
      longTimer = setTimeout(() => {
        longTimer = null;
        if (press !== held || held.fired) return;
        held.fired = true;
        cellEls[held.idx]?.classList.remove("ipyms-holding");
        navigator.vibrate?.(20);
        act(longPressAction(view.cells[held.idx], flagMode), held.idx);
        showPressed();
      }, LONG_PRESS_MS);
    }
    showPressed();
  }

  function onPointerMove(e) {
    if (!press) return;
    if (driftedAway(press, e.clientX, e.clientY)) {
      endPress(); // a drag, not a press: nothing happens
      return;
    }
    if (press.kind === "touch") return;
    const idx = cellAt(e.clientX, e.clientY);
    if (idx !== press.idx) {
      press.idx = idx;
      showPressed();
    }
  }

  function onPointerUp(e) {
    if (!press) return;
    const p = press;
    const idx = p.kind === "touch" ? p.idx : cellAt(e.clientX, e.clientY);
    endPress();
    if (!view || isOver(view.status) || !live) return;
    act(pressEnd(p, idx, e.button, view.cells[idx], flagMode), idx);
  }

  // Right click and a long touch: no browser menu, and no JupyterLab context menu (Lumino listens on document).
  const onContextMenu = (e) => {
    if (eventCell(e) >= 0 || press) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  boardEl.addEventListener("pointerdown", onPointerDown);
  boardEl.addEventListener("pointermove", onPointerMove);
  boardEl.addEventListener("pointerup", onPointerUp);
  boardEl.addEventListener("pointercancel", endPress);
  boardEl.addEventListener("contextmenu", onContextMenu);

  // ---------------------------------------------------------------- keyboard
  function togglePlay() {
    send({ action: model.get("autoplaying") ? "pause" : "play" });
  }

  function onKeyDown(e) {
    if (!view) return;
    const target = e.composedPath?.()[0] ?? e.target;
    const control = target !== root && target instanceof Element ? target.closest("button, select, input, label, summary") : null;
    const act = keyAction(e);
    // A button keeps Space, Enter and Tab; any other board key still plays after a click on the face or the
    // toolbar. Inputs, selects and the picker keep every key. Notebook shortcuts never see a key.
    const native = e.key === " " || e.key === "Enter" || e.key === "Tab" || e.key === "Spacebar";
    const inPicker = target instanceof Element && pickerEl.contains(target);
    if (control && (inPicker || !control.matches("button, summary") || native)) {
      if (inPicker && act?.action === "escape") closePicker();
      if (!e.ctrlKey && !e.metaKey && !e.altKey) e.stopPropagation();
      return;
    }
    if (!act) return;
    if (act.action === "copy" && String(globalThis.getSelection?.() ?? "")) return; // copy the page's selection
    e.preventDefault();
    e.stopPropagation();
    if (act.action === "copy") {
      if (view) copyBoard();
      return;
    }
    if (act.action === "help") {
      togglePanel(helpPanelEl, helpToggleEl);
      return;
    }
    if (!live) return; // a snapshot: the keys are swallowed (no notebook shortcut), nothing is played
    root.classList.add("ipyms-kbd");
    if (act.type !== "action") {
      const [r, c] = moveCursor(cursor, act, view.rows, view.cols);
      setCursor(r, c);
      cellEls[cursorIdx].scrollIntoView?.({ block: "nearest", inline: "nearest" });
      return;
    }
    const [r, c] = cursor;
    switch (act.action) {
      case "reveal":
      case "flag":
      case "chord":
        if (!isOver(view.status)) send(cellMessage(act.action, r, c, view.cells[r * view.cols + c]));
        break;
      case "new_game":
      case "undo":
        send({ action: act.action });
        break;
      case "step":
        if (!stepEl.disabled) send({ action: "step" });
        break;
      case "hint":
        if (!hintEl.disabled) send({ action: "hint" });
        break;
      case "toggle_play":
        if (!playEl.disabled) togglePlay();
        break;
      case "flag_mode":
        toggleFlagMode();
        break;
      case "history_back":
      case "history_forward":
        scrub(act.action === "history_back" ? -1 : +1);
        break;
      case "escape":
        closePicker();
        if (!helpPanelEl.hidden) togglePanel(helpPanelEl, helpToggleEl);
        if (!statsEl.hidden) togglePanel(statsEl, statsToggleEl);
        if (Number(model.get("viewing")) >= 0) send({ action: "live" });
        break;
    }
  }

  function scrub(delta) {
    const length = Math.max(1, Number(model.get("history_length")) || 1);
    const viewing = Number(model.get("viewing"));
    const index = scrubTarget(viewing, length, delta);
    if (index !== (viewing < 0 ? length - 1 : viewing)) send({ action: "scrub", index });
  }
  root.addEventListener("keydown", onKeyDown);

  // ---------------------------------------------------------------- header and toolbar
  function toggleFlagMode() {
    flagMode = !flagMode;
    root.classList.toggle("ipyms-flagging", flagMode);
    updateToolbar();
  }
  flagModeEl.addEventListener("click", toggleFlagMode);
  // After a mouse click on the face or a toolbar button the board keeps the keyboard (Space reveals, the
  // arrows move the cursor); a button pressed from the keyboard keeps the focus, as buttons do.
  root.addEventListener("click", (e) => {
    const target = e.composedPath?.()[0] ?? e.target;
    if (e.detail > 0 && target instanceof Element && target.closest("button") && !pickerEl.contains(target) &&
        !target.closest(".ipyms-picker-toggle")) {
      root.focus({ preventScroll: true });
    }
  });
  faceEl.addEventListener("click", () => send({ action: "new_game" }));
  stepEl.addEventListener("click", () => send({ action: "step" }));
  playEl.addEventListener("click", togglePlay);
  undoEl.addEventListener("click", () => send({ action: "undo" }));
  hintEl.addEventListener("click", () => send({ action: "hint" }));
  pickerToggleEl.addEventListener("click", () => (pickerEl.hidden ? openPicker() : closePicker()));
  $(".ipyms-start").addEventListener("click", startFromPicker);
  $(".ipyms-picker-close").addEventListener("click", closePicker);
  for (const input of Object.values(customEls)) {
    input.addEventListener("focus", () => {
      const custom = pickerEl.querySelector('input[value="custom"]');
      if (custom) custom.checked = true;
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") startFromPicker();
    });
  }
  marksEl.addEventListener("change", () => setSetting("question_marks", marksEl.checked));
  labelsEl.addEventListener("change", () => setSetting("labels", labelsEl.checked));
  sliderEl.addEventListener("input", () => {
    scrubId = send({ action: "scrub", index: Number(sliderEl.value) });
  });
  backEl.addEventListener("click", () => scrub(-1));
  forwardEl.addEventListener("click", () => scrub(+1));
  resumeEl.addEventListener("click", () => send({ action: "resume" }));
  liveEl.addEventListener("click", () => send({ action: "live" }));
  zoomOutEl.addEventListener("click", () => setSetting("cell_size", zoomStep(drawnSize, -1)));
  zoomInEl.addEventListener("click", () => setSetting("cell_size", zoomStep(drawnSize, +1)));
  copyEl.addEventListener("click", () => view && copyBoard());
  statsToggleEl.addEventListener("click", () => togglePanel(statsEl, statsToggleEl));
  helpToggleEl.addEventListener("click", () => togglePanel(helpPanelEl, helpToggleEl));
  speedEl.addEventListener("change", () => {
    if (!live) return;
    model.set("delay", speedToDelay(speedEl.value));
    model.save_changes();
  });
  strategyEl.addEventListener("change", () => {
    if (!live) return;
    model.set("strategy", strategyEl.value);
    model.save_changes();
  });
  probEl.addEventListener("change", () => {
    if (!live) return;
    model.set("show_probabilities", probEl.checked);
    model.save_changes();
  });

  let observer = null;
  if (typeof ResizeObserver !== "undefined") {
    let lastWidth = -1;
    observer = new ResizeObserver(() => {
      const w = el.clientWidth;
      if (w !== lastWidth) {
        lastWidth = w;
        fit();
      }
    });
    observer.observe(el);
  }

  // ---------------------------------------------------------------- the host: theme, and is a kernel there?
  function readTheme() {
    const doc = el.ownerDocument || document;
    const body = doc.body;
    const html = doc.documentElement;
    let background = null;
    // The first opaque background behind the widget, crossing shadow roots (marimo) up to the page.
    for (let node = /** @type {Node | null} */ (el); node && background === null; ) {
      if (node instanceof Element) background = luminance(getComputedStyle(node).backgroundColor);
      node = node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentNode;
    }
    const theme = hostTheme({
      jpThemeLight: body?.getAttribute("data-jp-theme-light") ?? null,
      classes: [...(body?.classList ?? []), ...(html?.classList ?? [])],
      themeAttrs: [html?.getAttribute("theme"), body?.getAttribute("theme"), html?.getAttribute("data-theme"),
        body?.getAttribute("data-theme"), html?.getAttribute("data-color-mode"), html?.style.colorScheme],
      background,
      prefersDark: !!globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches,
    });
    root.classList.toggle("ipyms-dark", theme === "dark");
    root.classList.toggle("ipyms-light", theme === "light");
    setData(root, "theme", theme);
  }
  let themeQueued = false;
  const queueTheme = () => {
    if (themeQueued) return;
    themeQueued = true;
    requestAnimationFrame(() => {
      themeQueued = false;
      if (!disposed) readTheme();
    });
  };
  const themeObserver = new MutationObserver(queueTheme);
  for (const node of [document.documentElement, document.body]) {
    if (node) {
      themeObserver.observe(node, {
        attributes: true,
        attributeFilter: ["class", "style", "theme", "data-theme", "data-jp-theme-light", "data-jp-theme-name", "data-color-mode"],
      });
    }
  }
  const darkQuery = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
  darkQuery?.addEventListener?.("change", queueTheme);

  // A saved copy (a static page, a notebook reopened after its kernel stopped, a restarted kernel) has a
  // model with no comm: ask the widget manager, where it can tell (ipywidgets' ManagerBase, the HTML
  // manager of exported pages). Elsewhere (marimo, unknown hosts) the widget stays playable.
  async function findModel() {
    const models = /** @type {any} */ (model.widget_manager)?._models;
    if (!models || typeof models !== "object") return null;
    const tag = `ipyms:whoami:${uid}`;
    let hit = false;
    const mark = () => {
      hit = true;
    };
    model.on(tag, mark);
    try {
      for (const pending of Object.values(models)) {
        let candidate;
        try {
          candidate = await pending;
        } catch {
          continue;
        }
        if (!candidate || typeof candidate.trigger !== "function") continue;
        hit = false;
        candidate.trigger(tag);
        if (hit) return candidate;
      }
    } finally {
      model.off(tag, mark);
    }
    return null;
  }
  let backbone = null;
  function checkLive() {
    const next = backbone ? backbone.comm_live !== false : true;
    if (next === live) return;
    live = next;
    if (!live) endPress();
    refresh();
  }
  const onCommChange = () => checkLive();
  findModel()
    .then((found) => {
      if (disposed || !found) return;
      backbone = found;
      model.on("comm_live_update", onCommChange);
      model.on("comm:close", onCommChange);
      checkLive();
    })
    .catch(() => {});

  readTheme();
  refresh();

  return () => {
    disposed = true;
    if (timer) clearInterval(timer);
    clearLongPress();
    observer?.disconnect();
    themeObserver.disconnect();
    darkQuery?.removeEventListener?.("change", queueTheme);
    model.off("comm_live_update", onCommChange);
    model.off("comm:close", onCommChange);
    for (const t of TRAITS) model.off(`change:${t}`, schedule);
    root.remove();
  };
}

export default { render };
