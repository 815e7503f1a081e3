// The widget's markup: built once per view from the constants Python exports (js/constants.js).
import { CONSTANTS } from "./constants.js";
import { FIRST_CLICKS, FIRST_CLICK_TEXT, KEY_HELP, LEVELS, STATS_HEADERS } from "./features.js";

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

export function faceMarkup(face) {
  return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">${FACE_SVG[face]}</svg>`;
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

/** The game picker: the levels, a custom size, the first-click policy and two settings. */
function pickerMarkup(uid) {
  const levels = Object.entries(LEVELS)
    .map(([name, [r, c, m]]) =>
      `<label><input type="radio" name="${uid}-level" value="${name}"> ${name[0].toUpperCase()}${name.slice(1)} <small>${r}×${c}, ${m} mines</small></label>`)
    .join("");
  const policies = FIRST_CLICKS.map((p) => `<option value="${p}">${escapeHtml(FIRST_CLICK_TEXT[p])}</option>`).join("");
  return `<div class="ipyms-picker" role="dialog" aria-modal="true" aria-label="New game" hidden>
    <fieldset class="ipyms-levels"><legend>Level</legend>${levels}
      <label><input type="radio" name="${uid}-level" value="custom"> Custom</label>
      <span class="ipyms-custom">
        <label>rows <input type="text" class="ipyms-custom-rows" inputmode="numeric" autocomplete="off" size="5"></label>
        <label>columns <input type="text" class="ipyms-custom-cols" inputmode="numeric" autocomplete="off" size="5"></label>
        <label>mines <input type="text" class="ipyms-custom-mines" inputmode="numeric" autocomplete="off" size="7"></label>
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
`;
}

/** The widget's static markup (filled and updated by the renderers of js/dom.js and js/board.js). */
export function skeleton(uid) {
  return `
  <div class="ipyms-header">
    <div class="ipyms-counter ipyms-led" role="img" aria-label="10 mines left">000</div>
    <div class="ipyms-face-group">
      <button type="button" class="ipyms-face" data-face="smile" aria-label="New game" title="New game, same settings (N)"></button>
      <button type="button" class="ipyms-btn ipyms-picker-toggle" aria-haspopup="dialog" aria-expanded="false" title="Choose a game: level, size, first click">Game &#9662;</button>
    </div>
    <div class="ipyms-timer ipyms-led" role="timer" aria-label="seconds">000</div>
  </div>
  ${pickerMarkup(uid)}
  <div class="ipyms-board-wrap" tabindex="-1"><div class="ipyms-grid">
    <div class="ipyms-corner" aria-hidden="true"></div>
    <div class="ipyms-col-labels" aria-hidden="true"></div>
    <div class="ipyms-row-labels" aria-hidden="true"></div>
    <div class="ipyms-board" role="grid" aria-label="Minesweeper"></div>
  </div></div>
  <div class="ipyms-minimap" hidden><canvas class="ipyms-minimap-canvas" aria-hidden="true" title="Where the view is: click to go there"></canvas>
    <div class="ipyms-position" aria-live="off"></div></div>
  <div class="ipyms-snapshot-note" role="note" hidden>${escapeHtml(CONSTANTS.snapshot_note)}</div>
  <div class="ipyms-message"></div>
  <div class="ipyms-announce" role="status" aria-live="polite" aria-atomic="true"></div>
  <div class="ipyms-busy" role="status" hidden><span class="ipyms-busy-text"></span>
    <button type="button" class="ipyms-btn ipyms-cancel" title="Stop what the kernel works on">Cancel</button></div>
  <div class="ipyms-error" role="alert" hidden></div>
  <details class="ipyms-error-details" hidden><summary>Traceback of the strategy</summary><pre></pre></details>
  ${reviewMarkup()}
  <div class="ipyms-history" role="group" aria-label="History">
    <button type="button" class="ipyms-btn ipyms-history-back" title="Back one move ([)" aria-label="Back one move">&#9664;</button>
    <input type="range" class="ipyms-history-slider" min="0" max="0" step="1" value="0" aria-label="Move shown">
    <button type="button" class="ipyms-btn ipyms-history-forward" title="Forward one move (])" aria-label="Forward one move">&#9654;</button>
    <button type="button" class="ipyms-btn ipyms-resume" title="Continue the game from this board: a new branch">Resume from here</button>
    <button type="button" class="ipyms-btn ipyms-live" title="Back to the live game (Esc)">Back to game</button>
    <div class="ipyms-history-text"></div>
  </div>
  ${toolbarMarkup(uid)}
  <div class="ipyms-reason"></div>
  <div class="ipyms-link-line" hidden><label>Link to this game <input type="text" class="ipyms-link-text" readonly></label></div>
  <div class="ipyms-stats" role="region" aria-label="Statistics" tabindex="0" hidden><table><thead><tr>${STATS_HEADERS.map((h) => `<th>${h}</th>`).join("")}</tr></thead><tbody></tbody></table>
    <div class="ipyms-stats-game"></div>
    <div class="ipyms-stats-note">${escapeHtml(CONSTANTS.stats_note)}</div></div>
  ${helpMarkup()}
`;
}


/** The Review panel: the summary at its top, the game's figures, the moves one by one (not a live region: the
 * live region says each move once). */
function reviewMarkup() {
  return `<section class="ipyms-review" aria-label="Game review" hidden>
    <div class="ipyms-review-summary"></div>
    <div class="ipyms-review-metrics"></div>
    <div class="ipyms-review-nav" role="group" aria-label="Moves of the review">
      <button type="button" class="ipyms-btn ipyms-review-prev" title="The move before ([)" aria-label="Previous move">&#9664;</button>
      <span class="ipyms-review-position"></span>
      <button type="button" class="ipyms-btn ipyms-review-next" title="The move after (])" aria-label="Next move">&#9654;</button>
      <button type="button" class="ipyms-btn ipyms-review-mistake" title="The next move not as good as the solver's (X)">Next mistake</button>
      <button type="button" class="ipyms-btn ipyms-review-close" title="Close the review, back to the game (Esc)">Close review</button>
    </div>
    <div class="ipyms-review-text"></div>
    <div class="ipyms-review-solver"></div>
  </section>`;
}

/** The visible help panel and the screen reader's description: the same keys (KEY_HELP), written once. */
function helpMarkup() {
  const keys = KEY_HELP.map(([k, what]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(what)}</dd>`).join("");
  const spoken = KEY_HELP.map(([k, what]) => `${k}: ${what}`).join("; ");
  const pointer = escapeHtml(CONSTANTS.pointer_help);
  return `<div class="ipyms-help-panel" hidden><dl>${keys}</dl><p>${pointer}</p></div>
  <div class="ipyms-help">Keys: ${escapeHtml(spoken)}. ${pointer}</div>`;
}

/** The toolbar: the moves (flag mode, undo, hint, step, play, speed), then the strategy and the view. */
function toolbarMarkup(uid) {
  return `  <div class="ipyms-toolbar" role="toolbar" aria-label="Autoplayer">
    <span class="ipyms-toolbar-group" role="group" aria-label="Moves">
    <button type="button" class="ipyms-btn ipyms-flag-mode" aria-pressed="false" title="Flag mode: taps flag instead of revealing (G)">&#9873; Flag</button>
    <button type="button" class="ipyms-btn ipyms-undo" title="Undo the last move (U or Z)">Undo</button>
    <button type="button" class="ipyms-btn ipyms-hint" title="Show the strategy's next move without playing it (H)">Hint</button>
    <button type="button" class="ipyms-btn ipyms-step" title="Play one move of the strategy (S)">Step</button>
    <button type="button" class="ipyms-btn ipyms-play" aria-pressed="false" title="Play / pause the strategy (P)">Play</button>
    <span class="ipyms-speed-label" title="Autoplay speed: the delay between two moves"><label for="${uid}-speed">Speed</label>
      <input type="range" class="ipyms-speed" id="${uid}-speed" min="0" max="100" step="1">
      <span class="ipyms-speed-value" aria-hidden="true"></span></span>
    </span>
    <span class="ipyms-toolbar-group" role="group" aria-label="Strategy and view">
    <select class="ipyms-strategy" aria-label="Strategy" title="Strategy"></select>
    <label class="ipyms-prob-label" title="Overlay each covered cell's mine probability"><input type="checkbox" class="ipyms-probabilities"> Probabilities</label>
    <span class="ipyms-zoom" role="group" aria-label="Zoom">
      <button type="button" class="ipyms-btn ipyms-zoom-out" title="Smaller cells" aria-label="Zoom out">&minus;</button>
      <button type="button" class="ipyms-btn ipyms-zoom-in" title="Bigger cells" aria-label="Zoom in">+</button>
    </span>
    <button type="button" class="ipyms-btn ipyms-copy" title="Copy the board as text (Ctrl+C)">Copy</button>
    <button type="button" class="ipyms-btn ipyms-review-toggle" aria-pressed="false" title="Review the finished game: each move rated by the exact solver (E)">Review</button>
    <button type="button" class="ipyms-btn ipyms-link-button" title="Copy a link to this game: the offline site opens it (L)">Link</button>
    <button type="button" class="ipyms-btn ipyms-stats-toggle" aria-expanded="false" title="Games played, won, best times, streaks">Stats</button>
    <button type="button" class="ipyms-btn ipyms-help-toggle" aria-expanded="false" title="Keyboard help (?)">?</button>
    </span>
  </div>`;
}
