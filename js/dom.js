// Small renderers: each writes one region of what view() computed into the DOM, touching a node only when
// its value changed (on a big board every needless write costs a style recalculation).
import { STATS_HEADERS } from "./features.js";
import { faceMarkup } from "./skeleton.js";

export function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}
export function setProp(el, key, value) {
  if (el[key] !== value) el[key] = value;
}
export function setAttr(el, name, value) {
  if (value === null) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
  } else if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
export function setData(el, key, value) {
  if (el.dataset[key] !== value) el.dataset[key] = value;
}
export function setClass(el, name, on) {
  if (el.classList.contains(name) !== on) el.classList.toggle(name, on);
}

/** The elements the renderers write, looked up once per view. */
export function elements(root) {
  const $ = (sel) => /** @type {any} */ (root.querySelector(sel));
  return {
    root,
    counter: $(".ipyms-counter"), face: $(".ipyms-face"), timer: $(".ipyms-timer"),
    wrap: $(".ipyms-board-wrap"), board: $(".ipyms-board"), colLabels: $(".ipyms-col-labels"), rowLabels: $(".ipyms-row-labels"),
    minimap: $(".ipyms-minimap"), minimapCanvas: $(".ipyms-minimap-canvas"), position: $(".ipyms-position"),
    note: $(".ipyms-snapshot-note"), message: $(".ipyms-message"), announce: $(".ipyms-announce"), error: $(".ipyms-error"),
    busy: $(".ipyms-busy"), busyText: $(".ipyms-busy-text"), cancel: $(".ipyms-cancel"),
    details: $(".ipyms-error-details"), detailsText: $(".ipyms-error-details pre"),
    slider: $(".ipyms-history-slider"), back: $(".ipyms-history-back"), forward: $(".ipyms-history-forward"),
    resume: $(".ipyms-resume"), toLive: $(".ipyms-live"), historyText: $(".ipyms-history-text"),
    flagMode: $(".ipyms-flag-mode"), undo: $(".ipyms-undo"), hint: $(".ipyms-hint"), step: $(".ipyms-step"),
    play: $(".ipyms-play"), speed: $(".ipyms-speed"), speedValue: $(".ipyms-speed-value"),
    strategy: $(".ipyms-strategy"), probabilities: $(".ipyms-probabilities"),
    zoomOut: $(".ipyms-zoom-out"), zoomIn: $(".ipyms-zoom-in"), copy: $(".ipyms-copy"),
    statsToggle: $(".ipyms-stats-toggle"), stats: $(".ipyms-stats"), statsBody: $(".ipyms-stats tbody"),
    statsGame: $(".ipyms-stats-game"), reviewToggle: $(".ipyms-review-toggle"), linkButton: $(".ipyms-link-button"),
    linkLine: $(".ipyms-link-line"), linkText: $(".ipyms-link-text"),
    review: {
      panel: $(".ipyms-review"), summary: $(".ipyms-review-summary"), metrics: $(".ipyms-review-metrics"),
      previous: $(".ipyms-review-prev"), next: $(".ipyms-review-next"), mistake: $(".ipyms-review-mistake"),
      close: $(".ipyms-review-close"), position: $(".ipyms-review-position"), move: $(".ipyms-review-text"),
      best: $(".ipyms-review-solver"),
    },
    helpToggle: $(".ipyms-help-toggle"), helpPanel: $(".ipyms-help-panel"), reason: $(".ipyms-reason"),
    pickerToggle: $(".ipyms-picker-toggle"), picker: $(".ipyms-picker"), pickerError: $(".ipyms-picker-error"),
    pickerCurrent: $(".ipyms-picker-current"), firstClick: $(".ipyms-first-click"), start: $(".ipyms-start"),
    pickerClose: $(".ipyms-picker-close"), marks: $(".ipyms-question-marks"), labels: $(".ipyms-labels-toggle"),
    custom: { rows: $(".ipyms-custom-rows"), cols: $(".ipyms-custom-cols"), mines: $(".ipyms-custom-mines") },
  };
}

/** @typedef {ReturnType<typeof elements>} Elements */

/** The root's state attributes and classes (the stable selectors of js/README.md). */
export function renderRoot(els, spec) {
  const root = els.root;
  setData(root, "status", spec.root.status);
  setData(root, "live", spec.root.live);
  setData(root, "viewing", spec.history.viewing);
  setClass(root, "ipyms-flagging", spec.root.flagging);
  setClass(root, "ipyms-kbd", spec.root.kbd);
  setClass(root, "ipyms-labelled", spec.root.labelled);
  if (spec.root.copied) setData(root, "copied", spec.root.copied);
  if (spec.grid) {
    setClass(root, "ipyms-small", spec.grid.small);
    if (root.style.getPropertyValue("--ipyms-cell") !== `${spec.grid.size}px`) root.style.setProperty("--ipyms-cell", `${spec.grid.size}px`);
  }
}

/** Counter, face, timer, status line, errors and the snapshot note. */
export function renderHeader(els, h) {
  setText(els.counter, h.counter);
  setAttr(els.counter, "aria-label", h.counterLabel);
  if (els.face.dataset.face !== h.face || !els.face.firstChild) {
    els.face.dataset.face = h.face;
    els.face.innerHTML = faceMarkup(h.face);
  }
  setProp(els.face, "disabled", h.faceDisabled);
  setText(els.timer, h.timer);
  setText(els.message, h.message);
  setText(els.announce, h.announce);
  setData(els.message, "status", els.root.dataset.status || "");
  setText(els.error, h.error);
  setProp(els.error, "hidden", !h.error);
  setText(els.busyText, h.busy);
  setProp(els.busy, "hidden", !h.busy);
  setText(els.detailsText, h.details);
  setProp(els.details, "hidden", !h.details);
  setProp(els.note, "hidden", !h.note);
}

function setPressed(el, pressed) {
  setAttr(el, "aria-pressed", String(pressed));
  setClass(el, "ipyms-active", pressed);
}

/** The strategy menu's options, replaced only when the list changed. */
function renderOptions(select, names) {
  const have = Array.from(select.options, (o) => o.value);
  if (have.length === names.length && have.every((n, i) => n === names[i])) return;
  select.replaceChildren(
    ...names.map((n) => {
      const o = document.createElement("option");
      o.value = n;
      o.textContent = n;
      return o;
    }),
  );
}

/** The toolbar. `speedHeld`: the player is dragging the slider (leave its thumb alone). */
export function renderToolbar(els, t, speedHeld) {
  for (const key of ["step", "hint", "undo"]) setProp(els[key], "disabled", t[key]);
  setProp(els.play, "disabled", t.play.disabled);
  setPressed(els.play, t.play.pressed);
  setText(els.play, t.play.text);
  setProp(els.flagMode, "disabled", t.flagMode.disabled);
  setPressed(els.flagMode, t.flagMode.pressed);
  renderOptions(els.strategy, t.strategy.options);
  if (els.strategy.value !== t.strategy.value) els.strategy.value = t.strategy.value;
  setProp(els.strategy, "disabled", t.strategy.disabled);
  if (!speedHeld) setProp(els.speed, "value", String(t.speed.value));
  setProp(els.speed, "disabled", t.speed.disabled);
  setAttr(els.speed, "aria-valuetext", t.speed.text);
  if (!speedHeld) setText(els.speedValue, t.speed.text);
  setProp(els.probabilities, "checked", t.probabilities.checked);
  setProp(els.probabilities, "disabled", t.probabilities.disabled);
  setProp(els.zoomOut, "disabled", t.zoomOut);
  setProp(els.zoomIn, "disabled", t.zoomIn);
  setText(els.copy, t.copy);
  setText(els.reason, t.reason);
  setProp(els.reviewToggle, "disabled", t.review.disabled && !t.review.pressed);
  setPressed(els.reviewToggle, t.review.pressed);
  setProp(els.linkButton, "disabled", t.link);
}

/** The history slider, its buttons and its line. */
export function renderHistory(els, h) {
  setProp(els.slider, "max", String(h.max));
  if (h.value !== null) setProp(els.slider, "value", String(h.value));
  setProp(els.slider, "disabled", h.disabled);
  setProp(els.back, "disabled", h.back);
  setProp(els.forward, "disabled", h.forward);
  setProp(els.resume, "disabled", h.resume);
  setProp(els.toLive, "disabled", h.toLive);
  setText(els.historyText, h.text);
}

function renderPanel(panel, toggle, open) {
  setProp(panel, "hidden", !open);
  setAttr(toggle, "aria-expanded", String(open));
}

/** The statistics table, rebuilt only when its rows changed. */
function renderStats(els, rows) {
  const key = JSON.stringify(rows);
  if (els.statsBody.dataset.key === key) return;
  els.statsBody.dataset.key = key;
  const row = (texts, span) => {
    const tr = document.createElement("tr");
    for (const t of texts) {
      const td = document.createElement("td");
      td.textContent = t;
      if (span) td.colSpan = span;
      tr.appendChild(td);
    }
    return tr;
  };
  els.statsBody.replaceChildren(...(rows.length ? rows.map((r) => row(r, 0)) : [row(["no finished games yet"], STATS_HEADERS.length)]));
}

/** The picker, the statistics and the help panel. */
export function renderPanels(els, p) {
  renderPanel(els.picker, els.pickerToggle, p.picker.open);
  setText(els.pickerCurrent, p.picker.current);
  setText(els.pickerError, p.picker.error);
  setProp(els.marks, "checked", p.picker.marks);
  setProp(els.labels, "checked", p.picker.labels);
  setProp(els.pickerToggle, "disabled", p.picker.disabled);
  renderPanel(els.stats, els.statsToggle, p.stats.open);
  if (p.stats.open) renderStats(els, p.stats.rows);
  renderPanel(els.helpPanel, els.helpToggle, p.help.open);
  setText(els.statsGame, p.stats.game);
  renderReview(els.review, p.review);
  setProp(els.linkLine, "hidden", !p.link);
  setProp(els.linkText, "value", p.link);
}

/** The Review panel. */
function renderReview(r, v) {
  setProp(r.panel, "hidden", !v.open);
  for (const key of ["summary", "metrics", "position", "move", "best"]) setText(r[key], v[key]);
  for (const key of ["previous", "next", "mistake"]) setProp(r[key], "disabled", v[key]);
}

/** Put the picker's form into its inputs (when it opens: typing is never overwritten). */
export function fillPicker(els, form) {
  for (const radio of els.picker.querySelectorAll('input[type="radio"]')) radio.checked = radio.value === form.level;
  for (const key of ["rows", "cols", "mines"]) els.custom[key].value = form[key];
  els.firstClick.value = form.firstClick;
}
