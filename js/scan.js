// The scan keys (issue 55), pure: a row or a column read as a line of cells, and the next number that still
// has covered cells around it. After Lichess's blind mode, whose commands read a rank or a file of the board.
// The third scan, the next cell the exact solver proves safe, is Python's (a hint: the browser never learns
// where the mines are). No DOM: `node --test js/` tests it.
import { cellWord, isNumber, neighbours } from "./helpers.js";

/** "3 covered", "2 empty", "2 mines", "2 wrong flags": a run of one kind of cell, counted. */
const counted = (n, word) => `${n} ${/(mine|flag)$/.test(word) ? `${word}s` : word}`;

/** A line read aloud says at most this many items; the rest is counted ("and 40 more cells"). */
export const LINE_ITEMS = 60;

/**
 * The words of a line of cells, runs of two or more of the same covered, flagged or empty cells said once
 * with their count ("1, 2, 3 covered, flagged, 2 empty"): a number is its digit alone, so "3 covered" is
 * three covered cells.
 * @param {string[]} chars the view characters of the line, in order
 */
export function lineWords(chars) {
  const items = [];
  for (let i = 0; i < chars.length; ) {
    let j = i + 1;
    if (!isNumber(chars[i])) while (j < chars.length && chars[j] === chars[i]) j++;
    items.push(j - i > 1 ? counted(j - i, cellWord(chars[i])) : cellWord(chars[i]));
    i = j;
  }
  if (items.length <= LINE_ITEMS) return items.join(", ");
  const rest = items.length - LINE_ITEMS;
  return `${items.slice(0, LINE_ITEMS).join(", ")}, and ${rest} more item${rest === 1 ? "" : "s"}`;
}

/** Row `row` read from its first cell to its last: "row 1: 1, 2, 3 covered, flagged, 2 empty". */
export function rowSpeech(cells, cols, row) {
  return `row ${row}: ${lineWords([...cells.slice(row * cols, (row + 1) * cols)])}`;
}

/** Column `col` read from top to bottom: "column 4: empty, 1, 7 covered". */
export function columnSpeech(cells, rows, cols, col) {
  const chars = [];
  for (let r = 0; r < rows; r++) chars.push(cells[r * cols + col]);
  return `column ${col}: ${lineWords(chars)}`;
}

/** Whether cell `i` shows a number that still has a covered (unflagged) cell around it. */
export function isOpenNumber(cells, rows, cols, i) {
  if (!isNumber(cells[i])) return false;
  const [r, c] = [Math.floor(i / cols), i % cols];
  return neighbours(r, c, rows, cols).some(([nr, nc]) => cells[nr * cols + nc] === ".");
}

/** The next number after cell `from`, in reading order and around to the start, that still has a covered
 * cell around it; `from` itself last; -1 when there is none. */
export function nextOpenNumber(cells, rows, cols, from) {
  const size = rows * cols;
  for (let k = 1; k <= size; k++) {
    const i = (from + k) % size;
    if (isOpenNumber(cells, rows, cols, i)) return i;
  }
  return -1;
}

/** What J says when it does not move the cursor: no such number, or the cursor's number is the only one. */
export function openNumberSpeech(found, from) {
  if (found < 0) return "no number has a covered cell around it";
  return found === from ? "no other number has a covered cell around it" : "";
}
