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
import minesweeper.solver.settings.PlayStyle;
import minesweeper.solver.utility.BinomialCache;
import minesweeper.structure.Action;

/**
 * Hill's Java solver as an oracle: for a board of the boards file and the cells revealed so far (in the
 * order they were clicked), the move his solver would play next, with the settings of Versus. One query
 * per line on stdin: "SEED r,c r,c ..." (rows and columns, the first click first); one JSON line per
 * query on stdout: the move as Versus --trace writes it (with the evaluated candidates when it is a
 * guess), {"state": S} when those clicks ended the game, {"error": ...} for a seed not in the file.
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
            try {
                spec = specs.get(Long.parseLong(parts[0]));
                for (int i = 1; i < parts.length; i++) {
                    String[] rc = parts[i].split(",");
                    if (rc.length != 2 || Integer.parseInt(rc[0]) < 0 || Integer.parseInt(rc[1]) < 0
                            || (spec != null && (Integer.parseInt(rc[0]) >= spec.rows() || Integer.parseInt(rc[1]) >= spec.cols()))) {
                        throw new NumberFormatException(parts[i]);
                    }
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
            FixedLayoutGame game = new FixedLayoutGame(spec.rows(), spec.cols(), spec.mines(), spec.seed());
            for (int i = 1; i < parts.length; i++) {
                String[] rc = parts[i].split(",");
                game.doAction(new Action(Integer.parseInt(rc[1]), Integer.parseInt(rc[0]), Action.CLEAR));
            }
            StringBuilder b = new StringBuilder();
            if (game.getGameState() != GameStateModel.STARTED) {
                b.append("{\"state\": ").append(game.getGameState()).append("}");
            } else {
                Solver solver = new Solver(game, Versus.settingsFor(spec), false);
                solver.setPlayStyle(PlayStyle.NO_FLAG);
                solver.setBinomialCache(cache);
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
}
