package hillharness;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.FileWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import minesweeper.gamestate.GameStateModel;
import minesweeper.settings.GameSettings;
import minesweeper.settings.GameType;
import minesweeper.solver.Solver;
import minesweeper.solver.bulk.BulkPlayer;
import minesweeper.solver.bulk.BulkRequest;
import minesweeper.solver.bulk.BulkRequestGame;
import minesweeper.solver.bulk.GamePostListener;
import minesweeper.solver.constructs.EvaluatedLocation;
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.settings.SettingsFactory;
import minesweeper.solver.settings.SettingsFactory.Setting;
import minesweeper.solver.settings.SolverSettings;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;
import minesweeper.structure.Location;

/**
 * Plays David Hill's Java solver on the boards of a boards file (benchmarks/boards_file.py), one line of
 * results per game: {"seed", "won", "cpu_s", "process_cpu_s", "moves", "guesses"}.
 *
 * Settings as his bulk program: SMALL_ANALYSIS, single thread, no flags, the first click at the board's
 * "first". The game loop plays every action the solver returns, in order, until the game ends, as his
 * bulk worker does. cpu_s is this thread's CPU time for the game (ThreadMXBean); process_cpu_s is the
 * whole JVM's over the same game, which adds what other threads spent meanwhile: the watchdog thread
 * his Solver.start() starts on every call (it wakes every 20 ms until the call ends), the garbage
 * collector's and the JIT compiler's. Play --warmup
 * boards first so that the JIT is warm.
 *
 *   java -cp CLASSES hillharness.Versus --boards B.jsonl --out R.jsonl [--warmup W.jsonl] [--limit N]
 *        [--trace T.jsonl] [--progress K]
 *   java -cp CLASSES hillharness.Versus --check-bulkplayer --boards B.jsonl --out R.jsonl [--limit N]
 *
 * --trace writes each game's actions (row, col, action, P(safe), certain, how it was found) and, for
 * each guess, the solver's evaluated candidates. --check-bulkplayer plays the same boards through his own,
 * unchanged BulkPlayer (one worker) instead, for comparing with this loop game by game.
 */
public final class Versus {

    record Spec(long seed, int rows, int cols, int firstRow, int firstCol, int[][] mines) {
    }

    record Result(long seed, boolean won, double cpu, double processCpu, int moves, int guesses) {
        String json() {
            return String.format(Locale.ROOT,
                    "{\"seed\": %d, \"won\": %s, \"cpu_s\": %.6f, \"process_cpu_s\": %.6f, \"moves\": %d, \"guesses\": %d}",
                    seed, won, cpu, processCpu, moves, guesses);
        }
    }

    private static final Pattern INT_FIELD = Pattern.compile("\"(seed|rows|cols)\":(-?\\d+)");
    private static final Pattern FIRST = Pattern.compile("\"first\":\\[(\\d+),(\\d+)\\]");
    private static final Pattern MINES = Pattern.compile("\"mines\":\\[(.*?)\\](\\]|,\"|\\})");
    private static final Pattern PAIR = Pattern.compile("\\[(\\d+),(\\d+)\\]");

    static Spec parse(String line) {
        String s = line.replaceAll("\\s", "");
        Map<String, Long> ints = new HashMap<>();
        Matcher m = INT_FIELD.matcher(s);
        while (m.find()) {
            ints.put(m.group(1), Long.parseLong(m.group(2)));
        }
        Matcher f = FIRST.matcher(s);
        Matcher mines = MINES.matcher(s);
        if (ints.size() != 3 || !f.find() || !mines.find()) {
            throw new IllegalArgumentException("not a board: " + line);
        }
        List<int[]> list = new ArrayList<>();
        Matcher p = PAIR.matcher(mines.group(1) + "]");
        while (p.find()) {
            list.add(new int[] {Integer.parseInt(p.group(1)), Integer.parseInt(p.group(2))});
        }
        return new Spec(ints.get("seed"), (int) (long) ints.get("rows"), (int) (long) ints.get("cols"),
                Integer.parseInt(f.group(1)), Integer.parseInt(f.group(2)), list.toArray(new int[0][]));
    }

    static List<Spec> read(String path, int limit) throws IOException {
        List<Spec> specs = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new FileReader(path))) {
            String line;
            while ((line = r.readLine()) != null && specs.size() < limit) {
                if (!line.isBlank()) {
                    specs.add(parse(line));
                }
            }
        }
        return specs;
    }

    static SolverSettings settings(int firstRow, int firstCol) {
        SolverSettings s = SettingsFactory.GetSettings(Setting.SMALL_ANALYSIS);
        s.setSingleThread(true);
        s.setStartLocation(new Location(firstCol, firstRow));
        return s;
    }

    private static final Map<String, SolverSettings> SETTINGS = new HashMap<>();

    static SolverSettings settingsFor(Spec spec) {
        return SETTINGS.computeIfAbsent(spec.firstRow + "," + spec.firstCol, k -> settings(spec.firstRow, spec.firstCol));
    }

    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static final com.sun.management.OperatingSystemMXBean PROCESS =
            (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

    static String actionName(int a) {
        return a == Action.CLEAR ? "clear" : a == Action.FLAG ? "flag" : a == Action.CLEARALL ? "chord" : "?";
    }

    /** His solver on ``game`` (a board of the file), with the settings of his bulk program. */
    static Solver newSolver(FixedLayoutGame game, Spec spec, BinomialCache cache) {
        Solver solver = new Solver(game, settingsFor(spec), false);
        solver.setPlayStyle(PlayStyle.NO_FLAG);
        solver.setBinomialCache(cache);
        return solver;
    }

    /** One game: his solver asked again after every batch of actions, each action played in order. */
    static Result play(Spec spec, BinomialCache cache, StringBuilder trace) {
        FixedLayoutGame game = new FixedLayoutGame(spec.rows, spec.cols, spec.mines, spec.seed);
        long p0 = PROCESS.getProcessCpuTime();
        long t0 = THREADS.getCurrentThreadCpuTime();
        Solver solver = newSolver(game, spec, cache);
        int moves = 0, guesses = 0, rounds = 0;
        boolean first = true;
        game:
        while (true) {
            if (++rounds > 10_000) {
                System.err.println("board " + spec.seed + ": still playing after 10,000 rounds");
                break;
            }
            solver.start();
            Action[] actions = solver.getResult();
            if (actions.length == 0) {
                System.err.println("board " + spec.seed + ": the solver returned no move");
                break;
            }
            List<EvaluatedLocation> evaluated = trace == null ? null : solver.getEvaluatedLocations();
            for (Action a : actions) {
                boolean played = game.doAction(a);  // false: nothing to do (revealed meanwhile by a cascade)
                if (played && !first) {  // moves that did something, after the first click (as benchmarks/versus.py)
                    moves++;
                }
                if (!a.isCertainty()) {
                    guesses++;
                }
                if (trace != null) {
                    traceAction(trace, a, first ? null : evaluated);
                    evaluated = null;
                }
                first = false;
                int state = game.getGameState();
                if (state == GameStateModel.WON || state == GameStateModel.LOST) {
                    break game;
                }
            }
        }
        double cpu = (THREADS.getCurrentThreadCpuTime() - t0) / 1e9;
        double processCpu = (PROCESS.getProcessCpuTime() - p0) / 1e9;
        return new Result(spec.seed, game.getGameState() == GameStateModel.WON, cpu, processCpu, moves, guesses);
    }

    static void traceAction(StringBuilder out, Action a, List<EvaluatedLocation> evaluated) {
        if (out.length() > 0 && out.charAt(out.length() - 1) != '[') {
            out.append(", ");
        }
        BigDecimal p = a.getBigProb();
        out.append(String.format(Locale.ROOT, "{\"pos\": [%d, %d], \"action\": \"%s\", \"p_safe\": %s, \"certain\": %s, \"method\": \"%s\"",
                a.y, a.x, actionName(a.getAction()), p == null ? "null" : p.doubleValue(), a.isCertainty(),
                a.getMoveMethod() == null ? "" : a.getMoveMethod().name()));
        if (evaluated != null && !a.isCertainty()) {
            out.append(", \"evaluated\": [");
            int k = 0;
            for (EvaluatedLocation e : evaluated) {
                if (k++ > 0) {
                    out.append(", ");
                }
                out.append(String.format(Locale.ROOT, "[%d, %d, %s, %s, %s]", e.y, e.x, e.getProbability().doubleValue(),
                        e.getWeighting().doubleValue(), e.getMaxValueProgress() == null ? "null" : e.getMaxValueProgress().doubleValue()));
            }
            out.append("]");
        }
        out.append("}");
    }

    static BinomialCache newCache() {
        // as his bulk worker: one cache per worker thread, reused across its games
        return new BinomialCache(5000, Solver.BINOMIAL_CACHE_LIMIT, Solver.binomialEngine);
    }

    static void runLoop(List<Spec> boards, List<Spec> warmup, String out, String tracePath, int progress) throws IOException {
        BinomialCache cache = newCache();
        long w0 = System.nanoTime();
        for (Spec s : warmup) {
            play(s, cache, null);
        }
        if (!warmup.isEmpty()) {
            System.err.printf(Locale.ROOT, "warm-up: %d games in %.1f s%n", warmup.size(), (System.nanoTime() - w0) / 1e9);
        }
        int won = 0, played = 0;
        double cpu = 0, processCpu = 0;
        try (PrintWriter w = new PrintWriter(new FileWriter(out));
             PrintWriter t = tracePath == null ? null : new PrintWriter(new FileWriter(tracePath))) {
            for (Spec s : boards) {
                StringBuilder trace = t == null ? null : new StringBuilder("[");
                Result r = play(s, cache, trace);
                w.println(r.json());
                w.flush();
                if (t != null) {
                    t.println(String.format(Locale.ROOT, "{\"seed\": %d, \"won\": %s, \"moves\": %s]}", s.seed, r.won, trace));
                }
                played++;
                won += r.won ? 1 : 0;
                cpu += r.cpu;
                processCpu += r.processCpu;
                if (progress > 0 && played % progress == 0) {
                    System.err.printf(Locale.ROOT, "%d/%d won %d (%.2f%%), %.1f games/CPU-s%n", played, boards.size(), won,
                            100.0 * won / played, played / cpu);
                }
            }
        }
        System.out.printf(Locale.ROOT, "{\"games\": %d, \"wins\": %d, \"win_rate\": %.5f, \"cpu_s\": %.3f, \"games_per_cpu_s\": %.3f, "
                + "\"process_cpu_s\": %.3f, \"games_per_process_cpu_s\": %.3f}%n",
                played, won, (double) won / played, cpu, played / cpu, processCpu, played / processCpu);
    }

    /** His unchanged BulkPlayer, one worker, handed the boards of the file in order. */
    static void runBulkPlayer(List<Spec> boards, String out) throws IOException {
        Spec first = boards.get(0);
        for (Spec s : boards) {
            if (s.rows != first.rows || s.cols != first.cols || s.mines.length != first.mines.length
                    || s.firstRow != first.firstRow || s.firstCol != first.firstCol) {
                throw new IllegalArgumentException("--check-bulkplayer needs boards of one size and one first click");
            }
        }
        GameSettings size = GameSettings.create(first.cols, first.rows, first.mines.length);
        List<Result> results = new ArrayList<>();
        BulkPlayer player = new BulkPlayer(new Random(0), boards.size(), GameType.STANDARD, size,
                settings(first.firstRow, first.firstCol), 1, boards.size() + 10) {
            private int next = 0;

            @Override
            protected GameStateModel getGameState(long seed) {
                Spec s = boards.get(next++);
                return new FixedLayoutGame(s.rows, s.cols, s.mines, s.seed);
            }
        };
        player.setPlayStyle(PlayStyle.NO_FLAG);
        player.registerPostGameListener(new GamePostListener() {
            @Override
            public void postAction(BulkRequest request) {
                BulkRequestGame g = request.getRequestGames()[0];
                FixedLayoutGame game = (FixedLayoutGame) g.getGame();
                results.add(new Result(game.boardSeed(), game.getGameState() == GameStateModel.WON, 0, 0,
                        game.getActionCount() - 1, g.getGuesses()));
            }

            @Override
            public void postResults() {
            }
        });
        player.run();
        try (PrintWriter w = new PrintWriter(new FileWriter(out))) {
            for (Result r : results) {
                w.println(r.json());
            }
        }
        long won = results.stream().filter(Result::won).count();
        System.out.printf(Locale.ROOT, "{\"bulkplayer_games\": %d, \"wins\": %d}%n", results.size(), won);
    }

    public static void main(String[] args) throws IOException {
        String boards = null, out = null, warmup = null, trace = null;
        int limit = Integer.MAX_VALUE, warmupGames = Integer.MAX_VALUE, progress = 0;
        boolean check = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--boards" -> boards = args[++i];
                case "--out" -> out = args[++i];
                case "--warmup" -> warmup = args[++i];
                case "--warmup-games" -> warmupGames = Integer.parseInt(args[++i]);
                case "--trace" -> trace = args[++i];
                case "--limit" -> limit = Integer.parseInt(args[++i]);
                case "--progress" -> progress = Integer.parseInt(args[++i]);
                case "--check-bulkplayer" -> check = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (boards == null || out == null) {
            System.err.println("usage: Versus --boards FILE --out FILE [--warmup FILE [--warmup-games N]] [--trace FILE]"
                    + " [--limit N] [--progress K] [--check-bulkplayer]");
            System.exit(2);
        }
        List<Spec> specs = read(boards, limit);
        if (check) {
            runBulkPlayer(specs, out);
        } else {
            runLoop(specs, warmup == null ? List.of() : read(warmup, warmupGames), out, trace, progress);
        }
        System.exit(0);  // his solver may leave helper threads behind
    }
}
