package hillharness;

import minesweeper.gamestate.GameStateModel;
import minesweeper.gamestate.GameStateModelViewer;
import minesweeper.settings.GameSettings;
import minesweeper.structure.Location;

/**
 * A game whose mines are given, not drawn: a board of a boards file. Hill's game states index cells as
 * [x][y] with x the column and y the row. Nothing is generated on the first click; revealing, the
 * cascade of zeros and chording read the fixed layout.
 */
public final class FixedLayoutGame extends GameStateModelViewer {

    private final int[][] value;  // [x][y]: GameStateModel.MINE or the number of neighbouring mines
    private final long boardSeed;

    /** mines[i] = {row, col}. */
    public FixedLayoutGame(int rows, int cols, int[][] mines, long boardSeed) {
        super(GameSettings.create(cols, rows, mines.length), boardSeed);
        this.boardSeed = boardSeed;
        value = new int[cols][rows];
        for (int[] m : mines) {
            value[m[1]][m[0]] = GameStateModel.MINE;
        }
        for (int x = 0; x < cols; x++) {
            for (int y = 0; y < rows; y++) {
                if (value[x][y] == GameStateModel.MINE) {
                    continue;
                }
                int n = 0;
                for (int dx = -1; dx <= 1; dx++) {
                    for (int dy = -1; dy <= 1; dy++) {
                        int nx = x + dx, ny = y + dy;
                        if ((dx != 0 || dy != 0) && nx >= 0 && nx < cols && ny >= 0 && ny < rows
                                && value[nx][ny] == GameStateModel.MINE) {
                            n++;
                        }
                    }
                }
                value[x][y] = n;
            }
        }
    }

    public long boardSeed() {
        return boardSeed;
    }

    @Override
    protected void startHandle(Location m) {
        // the layout is fixed: nothing to place
    }

    @Override
    protected void placeFlagHandle(Location m) {
    }

    @Override
    protected int queryHandle(int x, int y) {
        return value[x][y];
    }

    @Override
    protected boolean clearSquareHitMine(Location m) {
        if (value[m.x][m.y] == GameStateModel.MINE) {
            return true;
        }
        if (value[m.x][m.y] == 0) {
            explode(m);  // the superclass's cascade over connected zeros
        }
        return false;
    }

    @Override
    protected boolean clearSurroundHandle(Location m) {
        for (int dx = -1; dx <= 1; dx++) {
            for (int dy = -1; dy <= 1; dy++) {
                int nx = m.x + dx, ny = m.y + dy;
                if ((dx != 0 || dy != 0) && nx >= 0 && nx < width && ny >= 0 && ny < height) {
                    clearSquare(new Location(nx, ny));
                }
            }
        }
        return true;
    }

    @Override
    public int privilegedQuery(Location m, boolean showMines) {
        int shown = query(m);
        if (shown == GameStateModel.MINE) {
            return GameStateModel.EXPLODED_MINE;
        }
        if (showMines && shown == GameStateModel.HIDDEN && value[m.x][m.y] == GameStateModel.MINE) {
            return GameStateModel.MINE;
        }
        if (showMines && shown == GameStateModel.FLAG && value[m.x][m.y] != GameStateModel.MINE) {
            return GameStateModel.BAD_FLAG;
        }
        return shown;
    }

    @Override
    public String showGameKey() {
        return "board seed " + boardSeed;
    }
}
