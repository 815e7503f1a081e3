#!/usr/bin/env node
"use strict";
// Plays David Hill's JSMinesweeper solver on the boards of a boards file (benchmarks/boards_file.py), one line
// of results per game: {"seed", "won", "cpu_s", "moves", "guesses"}. The game loop is his bulkRun() (main.js):
// his options (no flags, advanced guessing, full probability), his ServerGame with the board's mines put in,
// the first action of each reply played, then the certain ones after it, until a guess.
//
//   JSMS_DIR=<his repository> node run.js --boards B.jsonl --out R.jsonl [--start safe|opening]
//       [--pe fast|real] [--shard K/N] [--limit N] [--progress K] [--trace T.jsonl]
//
// --start says how his game treats the first click ("opening": a zero, "safe": not a mine); by default it is
// read from the boards (opening when no mine touches the first click). --trace writes every game's moves
// (position, P(safe)) and, for each guess, his solver's messages and its log of the candidates it scored.
const fs = require("fs");
const { createSolverContext } = require("./loader.js");

function parseArgs(argv) {
    const a = { boards: null, out: null, start: null, pe: "fast", shard: [0, 1], limit: Infinity, progress: 0, trace: null };
    for (let i = 2; i < argv.length; i++) {
        const k = argv[i], v = argv[++i];
        if (k === "--boards") a.boards = v;
        else if (k === "--out") a.out = v;
        else if (k === "--start") a.start = v;
        else if (k === "--pe") a.pe = v;
        else if (k === "--shard") a.shard = v.split("/").map(Number);
        else if (k === "--limit") a.limit = parseInt(v);
        else if (k === "--progress") a.progress = parseInt(v);
        else if (k === "--trace") a.trace = v;
        else throw new Error("unknown argument " + k);
    }
    if (!a.boards || !a.out) throw new Error("usage: run.js --boards FILE --out FILE [...]");
    return a;
}

function cpuSeconds() { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; }

function touchesFirst(spec) {
    const [r0, c0] = spec.first;
    return spec.mines.some(([r, c]) => Math.abs(r - r0) <= 1 && Math.abs(c - c0) <= 1);
}

async function playGame(S, spec, start, trace) {
    const { rows: H, cols: W, first } = spec;
    const mines = spec.mines.length;
    const startIndex = first[0] * W + first[1];
    const gameType = start === "opening" ? "zero" : "safe";
    const game = new S.ServerGame(0, W, H, mines, startIndex, spec.seed, gameType);
    const layout = [W, H, mines];
    for (const [r, c] of spec.mines) layout.push(c, r);            // his x = column, y = row
    game.resetMinesUsingArray(layout);
    game.tilesLeft = W * H - mines;
    const board = new S.Board(0, W, H, mines, spec.seed, gameType);
    S.__setBoard(board);
    S.seedRandom(spec.seed);
    const options = { playStyle: S.PLAY_STYLE_NOFLAGS, verbose: !!trace, advancedGuessing: true,
        fullProbability: true, hardcore: false };
    let reply = game.clickTile(game.getTile(startIndex));
    S.applyResults(board, reply);
    let moves = 0, guesses = 0, calls = 0, stuck = false;
    const steps = [];
    while (reply.header.status == S.IN_PLAY) {
        if (++calls > 10000) { stuck = true; break; }
        if (trace) { S.log.lines = []; S.log.messages = []; }
        const actions = (await S.solver(board, options)).actions;
        let clicked = 0;
        for (let i = 0; i < actions.length; i++) {
            const action = actions[i];
            if (action.action == S.ACTION_CHORD || action.action == S.ACTION_FLAG) continue;
            if (i == 0 || action.prob == 1) {
                const tile = game.getTile(board.xy_to_index(action.x, action.y));
                if (action.prob != 1) guesses++;
                if (tile.isCovered()) { moves++; clicked++; }
                if (trace) {
                    const step = { pos: [action.y, action.x], p_safe: action.prob };
                    if (action.prob != 1) {
                        step.messages = S.log.messages.slice();
                        step.log = S.log.lines.slice(0, 400);
                    }
                    steps.push(step);
                }
                reply = game.clickTile(tile);
                if (reply.header.status != S.IN_PLAY) break;
                S.applyResults(board, reply);
            }
            if (action.prob != 1) break;                            // nothing after a guess
        }
        if (clicked === 0 && reply.header.status == S.IN_PLAY) { stuck = true; break; }
    }
    if (trace) S.log.lines = null;
    return { won: reply.header.status == S.WON, moves, guesses, stuck, steps };
}

async function main() {
    const a = parseArgs(process.argv);
    const S = createSolverContext({ jsmsDir: process.env.JSMS_DIR, peMode: a.pe });
    const all = fs.readFileSync(a.boards, "utf8").split("\n").filter(l => l.trim()).map(l => JSON.parse(l));
    const done = new Set();
    if (fs.existsSync(a.out)) for (const l of fs.readFileSync(a.out, "utf8").split("\n")) if (l.trim()) done.add(JSON.parse(l).seed);
    const [k, n] = a.shard;
    const todo = all.filter((_, i) => i % n === k).filter(b => !done.has(b.seed)).slice(0, a.limit);
    const out = fs.openSync(a.out, "a");
    const traceOut = a.trace ? fs.openSync(a.trace, "a") : null;
    let played = 0, won = 0, cpu = 0, stuck = 0;
    for (const spec of todo) {
        const start = a.start || (touchesFirst(spec) ? "safe" : "opening");
        const c0 = cpuSeconds();
        const g = await playGame(S, spec, start, !!traceOut);
        const c = cpuSeconds() - c0;
        played++; won += g.won; cpu += c; stuck += g.stuck;
        fs.writeSync(out, JSON.stringify({ seed: spec.seed, won: g.won, cpu_s: +c.toFixed(6), moves: g.moves,
            guesses: g.guesses, stuck: g.stuck }) + "\n");
        if (traceOut) fs.writeSync(traceOut, JSON.stringify({ seed: spec.seed, won: g.won, moves: g.steps }) + "\n");
        if (a.progress && played % a.progress === 0) {
            process.stderr.write(`${played}/${todo.length} won ${won} (${(100 * won / played).toFixed(2)}%), ` +
                `${(played / cpu).toFixed(2)} games/CPU-s, pe>=50ms ${S.peStats.over50}/${S.peStats.calls}\n`);
        }
    }
    fs.closeSync(out);
    if (traceOut) fs.closeSync(traceOut);
    console.log(JSON.stringify({ games: played, already: done.size, wins: won, cpu_s: +cpu.toFixed(2),
        games_per_cpu_s: +(played / cpu).toFixed(3), stuck, pe: { mode: a.pe, ...S.peStats }, node: process.version }));
}

main().catch(e => { console.error(e); process.exit(1); });
