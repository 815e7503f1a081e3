package hillharness;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import minesweeper.gamestate.GameStateModel;
import minesweeper.solver.Solver;
import minesweeper.solver.constructs.EvaluatedLocation;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;

/**
 * Hill's Java solver as an oracle: for a board of the boards file and the cells revealed so far (in the
 * order they were clicked), the move his solver would play next, with the settings of Versus. One query
 * per line on stdin: "SEED r,c r,c ..." (rows and columns, the first click first); one JSON line per
 * query on stdout: the move as Versus --trace writes it (with the evaluated candidates when it is a
 * guess), {"state": S} when those clicks ended the game, {"none": true} when his solver found no move,
 * {"error": ...} for a line that is not a query, a seed not in the file or a cell off the board.
 * Replaying his own traced games through it gives his traced guesses (147 of 147 on 60 boards).
 *
 *   java -cp CLASSES hillharness.Oracle --boards B.jsonl
 */
public final class Oracle {
    public static void main(String[] args) throws IOException {
        String boards = null;
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--boards")) {
                boards = args[++i];
            }
        }
        if (boards == null) {
            System.err.println("usage: Oracle --boards FILE   (then one query per line on stdin: SEED r,c r,c ...)");
            System.exit(2);
        }
        Map<Long, Versus.Spec> specs = new HashMap<>();
        for (Versus.Spec s : Versus.read(boards, Integer.MAX_VALUE)) {
            specs.put(s.seed(), s);
        }
        BinomialCache cache = Versus.newCache();
        PrintStream out = new PrintStream(System.out, false);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.trim().split(" +");
            Versus.Spec spec;
            int[][] clicks = new int[parts.length - 1][];
            try {
                spec = specs.get(Long.parseLong(parts[0]));
                for (int i = 1; i < parts.length; i++) {
                    String[] rc = parts[i].split(",");
                    if (rc.length != 2) {
                        throw new NumberFormatException(parts[i]);
                    }
                    clicks[i - 1] = new int[] {Integer.parseInt(rc[0]), Integer.parseInt(rc[1])};
                }
            } catch (NumberFormatException e) {
                out.println("{\"error\": \"not a query: SEED r,c r,c ...\"}");
                out.flush();
                continue;
            }
            if (spec == null) {
                out.println("{\"error\": \"no board with seed " + parts[0] + " in the file\"}");
                out.flush();
                continue;
            }
            if (!onBoard(clicks, spec)) {
                out.println("{\"error\": \"a cell off the board\"}");
                out.flush();
                continue;
            }
            FixedLayoutGame game = new FixedLayoutGame(spec.rows(), spec.cols(), spec.mines(), spec.seed());
            for (int[] rc : clicks) {
                game.doAction(new Action(rc[1], rc[0], Action.CLEAR));
            }
            StringBuilder b = new StringBuilder();
            if (game.getGameState() != GameStateModel.STARTED) {
                b.append("{\"state\": ").append(game.getGameState()).append("}");
            } else {
                Solver solver = Versus.newSolver(game, spec, cache);
                solver.start();
                Action[] actions = solver.getResult();
                List<EvaluatedLocation> evaluated = solver.getEvaluatedLocations();
                if (actions.length == 0) {
                    b.append("{\"none\": true}");
                } else {
                    Versus.traceAction(b, actions[0], evaluated);
                }
            }
            out.println(b);
            out.flush();
        }
        System.exit(0);
    }

    static boolean onBoard(int[][] clicks, Versus.Spec spec) {
        for (int[] rc : clicks) {
            if (rc[0] < 0 || rc[1] < 0 || rc[0] >= spec.rows() || rc[1] >= spec.cols()) {
                return false;
            }
        }
        return true;
    }
}
