"use strict";
// Loads David Hill's JSMinesweeper solver (MIT licence, github.com/DavidNHill/JSMinesweeper) into one node `vm`
// context: his browser scripts in the order of his index.html, with stubs for the few GUI globals they read.
// Nothing of his is copied here; JSMS_DIR points at a checkout of his repository.
const vm = require("vm");
const fs = require("fs");
const path = require("path");

const SCRIPTS = [
    "Minesweeper/Utility/PrimeSieve.js",
    "Minesweeper/Utility/Binomial.js",
    "Minesweeper/client/Board.js",
    "Minesweeper/client/Tile.js",
    "Minesweeper/client/solver_main.js",
    "Minesweeper/client/solver_probability_engine.js",
    "Minesweeper/client/Brute_force.js",
    "Minesweeper/client/BruteForceAnalysis.js",
    "Minesweeper/client/MinesweeperGame.js",
    "Minesweeper/client/SolutionCounter.js",
    "Minesweeper/client/EfficiencyHelper.js",
    "Minesweeper/client/FiftyFiftyHelper.js",
    "Minesweeper/client/LongTermRiskHelper.js",
];

// mulberry32, as benchmarks/boards_file.py: seeds Math.random (his position hashes only) per game
function mulberry32(seed) {
    let a = seed >>> 0;
    return function () {
        a = (a + 0x6D2B79F5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

// peMode "real": his 50 ms rule on the probability engine's wall-clock time decides whether the guess
// tie-break runs (as in his page); "fast": it always runs, as on a fast enough machine (deterministic).
function createSolverContext({ jsmsDir, peMode = "fast" }) {
    if (!jsmsDir) throw new Error("set JSMS_DIR to a checkout of github.com/DavidNHill/JSMinesweeper");
    const log = { lines: null, messages: [] };   // lines: an array while tracing, else null
    const sandbox = {
        console: {
            log: (...a) => { if (log.lines) log.lines.push(a.join(" ")); },
            warn: (...a) => process.stderr.write("[solver warn] " + a.join(" ") + "\n"),
            error: (...a) => process.stderr.write("[solver error] " + a.join(" ") + "\n"),
            info: () => {}, debug: () => {},
        },
        performance: { now: () => performance.now() },
        setTimeout, clearTimeout,
        __log: log,
    };
    const ctx = vm.createContext(sandbox);
    for (const s of SCRIPTS) vm.runInContext(fs.readFileSync(path.join(jsmsDir, s), "utf8"), ctx, { filename: s });
    vm.runInContext(`
        var BOMB = 9, HIDDEN = 10;          // constants of his main.js
        var analysisMode = false, oldrng = false;
        var board = null;                   // the board being solved (LongTermRiskHelper reads its size)
        function __setBoard(b) { board = b; }
        function showMessage(text) { __log.messages.push(text); }
        async function sleep(msec) {}
        var binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));   // as his startup()
    `, ctx, { filename: "stubs.js" });
    const ctxMath = vm.runInContext("Math", ctx);
    const api = vm.runInContext(`({ Board, ServerGame, applyResults, solver, ProbabilityEngine,
        PLAY_STYLE_NOFLAGS, ACTION_CLEAR, ACTION_FLAG, ACTION_CHORD, WON, LOST, IN_PLAY, __setBoard })`, ctx);
    api.seedRandom = (seed) => { ctxMath.random = mulberry32((seed ^ 0x9E3779B9) >>> 0); };
    api.log = log;
    api.solver();   // his startup()'s initialisation call
    const peStats = { calls: 0, over50: 0 };
    const process_ = api.ProbabilityEngine.prototype.process;
    api.ProbabilityEngine.prototype.process = function () {
        const r = process_.apply(this, arguments);
        peStats.calls++;
        if (this.duration >= 50) peStats.over50++;
        if (peMode === "fast") this.duration = 0;
        return r;
    };
    api.peStats = peStats;
    return api;
}

module.exports = { createSolverContext };
