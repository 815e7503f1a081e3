// Test helpers (not bundled): a decoded Model from a few synced values, as Python would send them.
import { decodeModel } from "./wire.js";

/** The synced state of a board, with defaults for everything not given. */
export function synced(overrides = {}) {
  const rows = overrides.rows ?? 9;
  const cols = overrides.cols ?? 9;
  return {
    rows, cols, mines: 10, first_click: "opening", level: "beginner", cells: ".".repeat(rows * cols), status: "ready",
    mines_left: 10, started_at: 0, ended_at: 0, elapsed: 0, can_undo: false, summary: "", error: "", error_details: "",
    strategies: ["simple", "exact"], strategy: "exact", last_move: {}, hint_move: {}, show_probabilities: false,
    probabilities: {}, autoplaying: false, delay: 0.25, labels: false, cell_size: 0, question_marks: false, marks: [],
    history_length: 1, viewing: -1, history_step: {}, stats_table: [], handled: 0,
    ...overrides,
  };
}

/** The decoded Model of `synced(overrides)`. */
export const modelOf = (overrides = {}) => {
  const state = synced(overrides);
  return decodeModel((k) => state[k]);
};
