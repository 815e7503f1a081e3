// What the widget says: the pure speech of announce.js, and the reducer's live region (ui.speech).
import { test } from "node:test";
import assert from "node:assert/strict";

import { NO_TALLY, SPEAK_EVERY_MS, aroundSpeech, boardChanges, heardOf, modelSpeech, statusSpeech, tallied, tallySpeech } from "./announce.js";
import { initialUi, update } from "./ui.js";
import { modelOf } from "./testing.js";

const rows3 = (...lines) => lines.join("");

test("what a move changed: opened cells, a flag and the mines left", () => {
  const before = heardOf(modelOf({ rows: 3, cols: 3, status: "playing", cells: "........." }));
  const one = modelOf({ rows: 3, cols: 3, status: "playing", cells: rows3("...", ".2.", "...") });
  assert.equal(modelSpeech(before, one), "opened (1,1): 2");
  const many = modelOf({ rows: 3, cols: 3, status: "playing", cells: rows3("000", "011", "01.") });
  assert.equal(modelSpeech(before, many), "opened 8 cells");
  const flag = modelOf({ rows: 3, cols: 3, status: "playing", cells: rows3("...", "...", "..f"), mines_left: 9 });
  assert.equal(modelSpeech(before, flag), "flagged (2,2), 9 mines left");
  assert.equal(modelSpeech(heardOf(flag), modelOf({ rows: 3, cols: 3, status: "playing", mines_left: 1 })), "unflagged (2,2), 1 mine left");
  assert.deepEqual(boardChanges("2..", "...").covered, 1, "an undo covers cells again");
});

test("how a game ends: the mine that lost it, the time that won it", () => {
  const before = heardOf(modelOf({ rows: 3, cols: 3, status: "playing", cells: rows3("1..", "...", "...") }));
  const lost = modelOf({ rows: 3, cols: 3, status: "lost", cells: rows3("1*.", "..X", "*..") });
  assert.equal(modelSpeech(before, lost), "lost: mine at (1,2)", "the other mines shown are not 'opened'");
  const won = modelOf({ rows: 3, cols: 3, status: "won", cells: rows3("1F1", "111", "000"), started_at: 1000, ended_at: 42_500 });
  assert.equal(modelSpeech(before, won), "opened 7 cells. won in 41 s");
  const summary = modelOf({ rows: 3, cols: 3, status: "won", cells: rows3("1F1", "111", "000"), summary: "won in 41 s (assisted: 1 hint)" });
  assert.match(modelSpeech(before, summary), /won in 41 s \(assisted: 1 hint\)$/);
});

test("a new game, a hint and a strategy's move with its reason", () => {
  const playing = heardOf(modelOf({ status: "playing", cells: "0".repeat(40) + ".".repeat(41) }));
  assert.equal(modelSpeech(playing, modelOf()), "new game: 9 by 9, 10 mines");
  const hint = { action: "reveal", row: 5, col: 6, reason: "the 1 at (4,5) is full", strategy: "simple" };
  const hinted = modelOf({ status: "playing", cells: "0".repeat(40) + ".".repeat(41), hint_move: hint });
  assert.equal(modelSpeech(playing, hinted), "Hint: reveal (5,6) · simple — the 1 at (4,5) is full");
  const moved = modelOf({ status: "playing", cells: "0".repeat(40) + "1" + ".".repeat(40), last_move: { ...hint, row: 4, col: 4 } });
  assert.equal(modelSpeech(playing, moved), "reveal (4,4) · simple — the 1 at (4,5) is full. opened (4,4): 1");
});

test("the cells around the cursor, and the counter and timer, on demand", () => {
  const cells = rows3("1f.", "22.", "0..");
  assert.equal(aroundSpeech(cells, 3, 3, 1, 1), "around (1,1): 1 flag, 4 covered, numbers 1, 2, 1 empty");
  assert.equal(aroundSpeech(cells, 3, 3, 0, 0), "around (0,0): 1 flag, numbers 2, 2");
  assert.equal(statusSpeech("playing", 9, 41), "playing: 9 mines left, 41 s");
});

/** Feed the reducer models one after the other (as Python's updates come); returns the UI and each effect. */
function play(models, ui = initialUi()) {
  const effects = [];
  for (const model of models) {
    const [next, out] = update(ui, { type: "model" }, model);
    ui = next;
    effects.push(...out);
  }
  return { ui, effects };
}

test("the live region: silent on the first model, a move said once, the same model again says nothing", () => {
  const start = modelOf({ status: "playing", cells: ".".repeat(81) });
  const moved = modelOf({ status: "playing", cells: "2" + ".".repeat(80) });
  const first = play([start]);
  assert.equal(first.ui.speech.text, "", "opening a notebook says nothing");
  const once = play([moved, moved], first.ui);
  assert.deepEqual(once.ui.speech, { text: "opened (0,0): 2", seq: 1 }, "said once, not twice");
});

test("keys A and T read the cells around the cursor and the counter and timer, again when pressed again", () => {
  const model = modelOf({ status: "playing", cells: "1f" + ".".repeat(79), mines_left: 9, started_at: 1000 });
  const key = (action) => ({ type: "key", act: { type: "action", action } });
  let [ui] = update({ ...initialUi(), now: 42_000, cursor: { row: 1, col: 0 } }, key("around"), model);
  assert.equal(ui.speech.text, "around (1,0): 1 flag, 3 covered, number 1");
  [ui] = update(ui, key("status"), model);
  assert.deepEqual(ui.speech, { text: "playing: 9 mines left, 41 s", seq: 2 });
  [ui] = update(ui, key("status"), model);
  assert.equal(ui.speech.seq, 3, "a second press is said again");
});

test("autoplay is summarised at most once per SPEAK_EVERY_MS, a slow one read move by move", () => {
  const cells = (n) => "0".repeat(n) + ".".repeat(81 - n);
  const move = (n, extra = {}) => modelOf({ status: "playing", cells: cells(n), autoplaying: true,
    last_move: { action: "reveal", row: Math.floor(n / 9), col: n % 9, reason: `r${n}`, strategy: "exact" }, ...extra });
  const { ui, effects } = play([modelOf({ status: "playing", cells: cells(1) }), move(2), move(5), move(9)]);
  assert.equal(ui.speech.text, "", "nothing yet: the moves are counted");
  const timers = effects.filter((e) => e.type === "later" && e.name === "speak");
  assert.equal(timers.length, 1, "one timer for the three moves");
  assert.equal(timers[0].ms, SPEAK_EVERY_MS);
  const [spoken] = update(ui, { type: "speak" }, move(9));
  assert.equal(spoken.speech.text, "autoplay: 3 moves, opened 8 cells, 10 mines left");
  const slow = play([move(10)], spoken);
  const [one] = update(slow.ui, { type: "speak" }, move(10));
  assert.equal(one.speech.text, "reveal (1,1) · exact — r10. opened (1,0): empty", "one move: its reason is read");
  assert.deepEqual(tallied(NO_TALLY, heardOf(move(2)), move(5)).opened, 3);
  assert.equal(tallySpeech(NO_TALLY, 3), "");
});

test("a game autoplay ends is said at once, after the moves not yet said", () => {
  const base = modelOf({ rows: 3, cols: 3, status: "playing", cells: rows3("0..", "...", "...") });
  const auto = modelOf({ rows: 3, cols: 3, status: "playing", autoplaying: true, cells: rows3("01.", "...", "..."),
    last_move: { action: "reveal", row: 0, col: 1, reason: "a", strategy: "exact" } });
  const lost = modelOf({ rows: 3, cols: 3, status: "lost", autoplaying: false, cells: rows3("01X", "...", "..*"),
    last_move: { action: "reveal", row: 0, col: 2, reason: "a guess", strategy: "exact" } });
  const { ui } = play([base, auto, lost]);
  assert.equal(ui.speech.text, "reveal (0,1) · exact — a. opened (0,1): 1. reveal (0,2) · exact — a guess. lost: mine at (0,2)");
});

test("the review is said as it opens (its summary, then the move), step by step, and as it closes; not its boards", () => {
  const game = { rows: 3, cols: 3, status: "lost", cells: rows3("1*.", "..X", "*..") };
  const move = (index, cells, extra = {}) =>
    modelOf({
      ...game,
      cells,
      reviewing: {
        index, count: 4, summary: "4 moves, lost: accuracy 75%", metrics: "", mistakes: [3],
        move: { text: `move ${index + 1} of 4: reveal (0,0): certainly safe`, best: { action: "reveal", row: 0, col: 0 }, ...extra },
      },
    });
  const closed = heardOf(modelOf(game));
  const first = move(0, ".........");
  assert.equal(modelSpeech(closed, first), "review: 4 moves, lost: accuracy 75%. move 1 of 4: reveal (0,0): certainly safe");
  const later = move(3, rows3("1..", "...", "..."), { text: "move 4 of 4: reveal (1,2): a forced guess (50% mine)", better: true, best: { action: "reveal", row: 2, col: 2 } });
  assert.equal(
    modelSpeech(heardOf(first), later),
    "move 4 of 4: reveal (1,2): a forced guess (50% mine); the solver's move: reveal (2,2)",
    "the board changed, yet only the move is said: it is the review's board, not a move of the game",
  );
  assert.equal(modelSpeech(heardOf(later), modelOf(game)), "review closed: back to the game");
});
