// node --test js/ : the pure rules of the player's and teacher's features (js/features.js).
import { test } from "node:test";
import assert from "node:assert/strict";

import {
  boardText,
  gameInAddress,
  linkAddress,
  linkSpeech,
  reviewEdgeSpeech,
  reviewTarget,
  siteBase,
  STATS_HEADERS,
  cellSize,
  maxMines,
  pitchOf,
  cellsOf,
  describeGame,
  describeMove,
  historyText,
  KEY_HELP,
  labelTexts,
  pickerLevel,
  pickerRequest,
  scrubTarget,
  sliderFollows,
  statsRow,
  zoomStep,
} from "./features.js";

test("pickerRequest asks for a level or a checked custom size", () => {
  assert.deepEqual(pickerRequest({ level: "expert", firstClick: "safe" }).request, {
    action: "new_game",
    level: "expert",
    first_click: "safe",
  });
  assert.deepEqual(pickerRequest({ level: "custom", rows: "10", cols: 12, mines: " 20 ", firstClick: "no-guess" }).request, {
    action: "new_game",
    rows: 10,
    cols: 12,
    mines: 20,
    first_click: "no-guess",
  });
  const error = (rows, cols, mines, firstClick = "safe") => pickerRequest({ level: "custom", rows, cols, mines, firstClick }).error;
  // each message gives the real reason
  assert.equal(error("ten", 5, 2), "rows = ten is not a number");
  assert.equal(error("", 5, 2), "rows is empty: type a number");
  assert.equal(error("5", "2.5", 2), "columns = 2.5 is not a whole number");
  assert.equal(error(5, 0, 2), "columns = 0: a board has at least 1 column");
  assert.equal(error(5, 5, -3), "mines = -3: the number of mines cannot be negative");
  assert.equal(error(5, 5, 25), '25 mines do not fit 5×5 with a first click "safe": at most 24');
  assert.equal(error(5, 5, 17, "opening"), '17 mines do not fit 5×5 with a first click "opening": at most 16');
  assert.equal(error(2001, 2000, 1), "2001×2000 is 4,002,000 cells: the most is 4,000,000 (2000×2000, say)");
  // the engine's cap, not a picker-only limit: 2000×2000 and 1×4,000,000 start
  assert.equal(pickerRequest({ level: "custom", rows: 2000, cols: 2000, mines: 600000, firstClick: "safe" }).request.rows, 2000);
  assert.equal(pickerRequest({ level: "custom", rows: 1, cols: 4000000, mines: 3, firstClick: "any" }).request.cols, 4000000);
  assert.equal(pickerRequest({ level: "beginner", firstClick: "bogus" }).request.first_click, "opening");
});

test("the picker shows the current game", () => {
  assert.equal(pickerLevel("expert"), "expert");
  assert.equal(pickerLevel("10x12/20"), "custom");
  assert.equal(describeGame(16, 30, 99, "safe", "expert"), "expert 16×30, 99 mines · safe");
  assert.equal(describeGame(10, 12, 20, "opening", "10x12/20"), "10×12, 20 mines · opening");
});

test("cells fit the width between 24 and 28 px; the zoom steps by 4 between 16 and 64", () => {
  assert.equal(cellSize(0, 900, 16), 28);
  assert.equal(cellSize(0, 900, 30), 28);
  assert.equal(cellSize(0, 750, 30), 25);
  assert.equal(cellSize(0, 400, 30), 24, "expert in a narrow output scrolls instead of shrinking");
  assert.equal(cellSize(0, 800, 100), 24, "a big board scrolls instead of shrinking");
  assert.equal(cellSize(0, 0, 10), 28);
  assert.equal(cellSize(40, 100, 100), 40, "the zoom wins over the width");
  assert.equal(cellSize(16, 100, 100), 16, "the player may zoom out below 24 px");
  assert.equal(cellSize(90, 100, 100), 64);
  // WCAG 2.5.8: with no zoom set, a cell is never under 24 x 24 px (the pitch is the cell: no gap)
  for (let width = 0; width < 2000; width += 37) {
    for (const cols of [1, 9, 16, 30, 100, 2000]) {
      const size = cellSize(0, width, cols);
      assert.ok(size >= 24 && pitchOf(size) === size, `${width} px for ${cols} columns: ${size}`);
    }
  }
  assert.equal(pitchOf(16), 17);
  assert.equal(pitchOf(19), 20);
  assert.equal(pitchOf(20), 20);
  assert.equal(maxMines(9, 9, "opening"), 72);
  assert.equal(maxMines(9, 9, "safe"), 80);
  assert.equal(maxMines(2, 1, "no-guess"), 0);
  assert.equal(zoomStep(24, +1), 28);
  assert.equal(zoomStep(24, -1), 20);
  assert.equal(zoomStep(17, -1), 16);
  assert.equal(zoomStep(64, +1), 64);
});

test("labels use the 0-based numbers of the reasons", () => {
  assert.deepEqual(labelTexts(3), ["0", "1", "2"]);
});

test("the slider says which move is shown and how it was reached", () => {
  assert.equal(historyText(0, 1, {}), "Move 0 of 0: the start of the game");
  assert.equal(historyText(3, 8, { text: "exact: reveal (4,7): (4,7) is safe" }), "Move 3 of 7: exact: reveal (4,7): (4,7) is safe");
  assert.equal(historyText(0, 8, {}), "Move 0 of 7: the start");
  assert.equal(historyText(7, 8, { text: "exact: reveal (4,7): a long reason" }, false), "Move 7 of 7: the game now");
  assert.equal(scrubTarget(-1, 8, -1), 6);
  assert.equal(scrubTarget(-1, 8, +1), 7);
  assert.equal(scrubTarget(0, 8, -1), 0);
  assert.equal(scrubTarget(3, 8, +1), 4);
});

test("sliderFollows: the thumb stays where the player put it until Python has answered", () => {
  assert.equal(sliderFollows(false, -1, false), true); // not touched: follows the game
  assert.equal(sliderFollows(false, 3, false), true);
  assert.equal(sliderFollows(true, 3, false), false); // held on an earlier board
  assert.equal(sliderFollows(true, -1, false), true); // back to live (Esc, Back to game)
  assert.equal(sliderFollows(true, -1, true), false); // moved, not answered yet: another update says "live"
  assert.equal(sliderFollows(false, -1, true), false);
});

test("statistics rows", () => {
  assert.deepEqual(
    statsRow({ level: "expert", first_click: "safe", played: 4, won: 1, best_seconds: 101.4, median_seconds: 101.4, streak: 0, best_streak: 1 }),
    ["expert", "safe", "4", "1 (25%)", "101 s", "101 s", "0 / 1", "–", "–"],
  );
  const fast = { level: "beginner", first_click: "safe", played: 1, won: 1, best_seconds: 9, median_seconds: 9, streak: 1, best_streak: 1 };
  assert.deepEqual(statsRow({ ...fast, best_bbbv_per_second: 1.3333, best_efficiency: 0.8571 }).slice(7), ["1.33", "86%"]);
  assert.equal(STATS_HEADERS.length, 9);
  assert.deepEqual(statsRow({ level: "beginner", first_click: "opening", played: 1, won: 0, best_seconds: null, median_seconds: null, streak: 0, best_streak: 0 })[4], "–");
});

test("the statistics count whole seconds as the LED timer does: 27.9 s is 27 s", () => {
  const row = statsRow({ level: "expert", first_click: "safe", played: 1, won: 1, best_seconds: 27.9, median_seconds: 27.5, streak: 1, best_streak: 1 });
  assert.deepEqual(row.slice(4, 6), ["27 s", "27 s"]);
});

test("copy as text is the view, one line per row", () => {
  assert.equal(boardText(".f1023", 2, 3), ".f1\n023");
});

test("the move line says what the strategy knew: a probability, or a score that is not one", () => {
  assert.equal(describeMove({}), "");
  assert.equal(
    describeMove({ action: "reveal", row: 3, col: 4, reason: "the 1 at (2,3) is satisfied", probability: 0, strategy: "exact" }),
    "reveal (3,4) · mine probability 0% · exact — the 1 at (2,3) is satisfied",
  );
  assert.equal(describeMove({ action: "reveal", row: 0, col: 1, probability: null, score: 0.8333 }), "reveal (0,1) · score 0.83 (not a probability)");
  assert.equal(describeMove({ action: "flag", row: 0, col: 1 }, "Hint: "), "Hint: flag (0,1)");
});

test("a move's cells: on-board pairs only", () => {
  assert.deepEqual(cellsOf([[0, 1], [2, 2], [9, 0], ["a", 1], [1]], 3, 3), [1, 8]);
  assert.deepEqual(cellsOf(null, 3, 3), []);
});

test("the help lists every key the keyboard map knows", () => {
  const keys = KEY_HELP.map(([k]) => k).join(" ");
  for (const k of ["H", "S", "P", "U, Z", "[ ]", "N", "G", "A", "T", "R, V", "J", "K", "?", "Ctrl+C", "Esc"]) assert.ok(keys.includes(k), k);
});

test("a modal dialog's Tab wraps around its controls; inside, the browser's Tab goes on", async () => {
  const { wrapFocus } = await import("./features.js");
  assert.equal(wrapFocus(4, 5, false), 0, "Tab past the last: the first");
  assert.equal(wrapFocus(0, 5, true), 4, "Shift+Tab before the first: the last");
  assert.equal(wrapFocus(2, 5, false), -1);
  assert.equal(wrapFocus(2, 5, true), -1);
  assert.equal(wrapFocus(-1, 5, false), 0, "from outside the controls: into the dialog");
  assert.equal(wrapFocus(-1, 5, true), 4);
  assert.equal(wrapFocus(0, 0, false), -1);
});

test("the review's keys and buttons: the move before, after, and the next one not as good as the solver's", () => {
  const review = { open: true, index: 2, count: 5, summary: "", metrics: "", mistakes: [1, 3], move: {} };
  assert.equal(reviewTarget(review, "previous"), 1);
  assert.equal(reviewTarget(review, "next"), 3);
  assert.equal(reviewTarget(review, "mistake"), 3);
  assert.equal(reviewTarget({ ...review, index: 3 }, "mistake"), -1, "none after the last mistake");
  assert.equal(reviewTarget({ ...review, index: 0 }, "previous"), -1);
  assert.equal(reviewTarget({ ...review, index: 4 }, "next"), -1);
  assert.equal(reviewTarget({ ...review, open: false }, "next"), -1);
  assert.match(reviewEdgeSpeech("mistake"), /no later move/);
});

test("a shared game is read from the page's addresses, the one it was opened with too", () => {
  const opened = "http://127.0.0.1:8000/lab/index.html?path=shared-game.ipynb#game=1.eNpj";
  assert.equal(gameInAddress(["http://127.0.0.1:8000/lab/index.html", opened]), "1.eNpj");
  assert.equal(gameInAddress(["http://x/lab/index.html#a=1&game=1.abc"]), "1.abc");
  assert.equal(gameInAddress(["http://x/lab/index.html", undefined]), "");
  assert.equal(siteBase(opened), "http://127.0.0.1:8000/");
  assert.equal(siteBase("https://school.example/mines/lab/index.html"), "https://school.example/mines/");
  assert.equal(siteBase("http://localhost:8888/lab/tree/01-play.ipynb"), "", "JupyterLab is not the offline site");
  const url = "http://127.0.0.1:8000/lab/index.html?path=shared-game.ipynb#game=1.x";
  assert.equal(linkAddress(url, "http://10.0.0.2:8000/"), "http://10.0.0.2:8000/lab/index.html?path=shared-game.ipynb#game=1.x");
  assert.equal(linkAddress(url, ""), url);
  assert.equal(linkSpeech("review", true), "copied a link to this game's review");
  assert.match(linkSpeech("moves", false), /under the board/);
});
