"""The course's exercises, as data: which notebook each is in, the names a student defines, its check.

A notebook marks its cells in their metadata, under ``"ipyminesweeper"``:

- ``{"exercise": "02-chord"}``: the cell a student edits (the stub: a ``TODO`` and the check's call);
- ``{"solution": "02-chord"}``: a cell of the answer (the folded code, and the sentence that opens it).

:mod:`.editions` builds the student's, the teacher's and the grader's editions from those marks, and
:mod:`.grading` grades a handed-in notebook with the checks named here, on more examples than the student's
own check tries (:attr:`Exercise.tries`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..exercises.autoplayer import STRATEGY, check_strategy
from ..exercises.bbbv import BBBV, check_bbbv
from ..exercises.counting import PROBABILITIES, check_probabilities
from ..exercises.elm import UPDATE, VIEW, check_update, check_view
from ..exercises.laws import BROKEN_RULE, PROPERTY, check_broken_rule, check_property
from ..exercises.moves import CHORD, REPLAY, TOGGLE_FLAG, check_chord, check_replay, check_toggle_flag
from ..exercises.report import Check
from ..exercises.search import SEED

__all__ = ["EXERCISES", "KEY", "Exercise", "exercises_of"]

_RULES = "ipyminesweeper.engine.rules"

KEY = "ipyminesweeper"
"""The key of the marks in a cell's metadata, and of the notebook's name in the notebook's."""


@dataclass(frozen=True)
class Exercise:
    """One exercise: ``id`` (``"02-chord"``), the ``notebook`` it is in, the ``names`` the student's
    cell defines (or the notebook gives) that its ``check`` is called with, the check's ``properties``
    (one point each), how many examples the grader tries, and ``answers``: the library's own answers to
    it (``module:attribute``), which an answer may not be, wrap or call without the grader saying so."""

    id: str
    notebook: str
    title: str
    names: tuple[str, ...]
    check: Callable[..., Check]
    properties: tuple[str, ...]
    tries: int
    answers: tuple[str, ...] = ()

    def run(self, namespace: Mapping[str, Any], seed: int = SEED) -> Check:
        """The check, on the objects ``namespace`` binds to :attr:`names` (KeyError names a missing one),
        with the grader's number of examples, drawn from ``seed``."""
        missing = [name for name in self.names if name not in namespace]
        if missing:
            raise KeyError(f"no {', '.join(missing)} defined: the exercise's cell defines {self.names[0]}")
        return self.check(*(namespace[name] for name in self.names), tries=self.tries, seed=seed)

    @property
    def answer_names(self) -> tuple[str, ...]:
        """The names of :attr:`answers` as code writes them (``chord``, ``exact``)."""
        return tuple(answer.partition(":")[2] for answer in self.answers)


EXERCISES: dict[str, Exercise] = {
    e.id: e
    for e in (
        Exercise(
            "02-toggle_flag",
            "02-boards-as-data",
            "toggle_flag",
            ("my_toggle_flag",),
            check_toggle_flag,
            TOGGLE_FLAG,
            1000,
            (f"{_RULES}:toggle_flag",),
        ),
        Exercise(
            "02-chord",
            "02-boards-as-data",
            "chord",
            ("my_chord",),
            check_chord,
            CHORD,
            1000,
            (f"{_RULES}:chord",),
        ),
        Exercise(
            "02-replay",
            "02-boards-as-data",
            "replay",
            ("my_replay",),
            check_replay,
            REPLAY,
            1000,
            ("ipyminesweeper.exercises.moves:replay",),
        ),
        Exercise(
            "02-bbbv",
            "02-boards-as-data",
            "3BV",
            ("my_bbbv",),
            check_bbbv,
            BBBV,
            1000,
            ("ipyminesweeper.engine.metrics:bbbv", "ipyminesweeper.engine.metrics:bbbv_clicks"),
        ),
        Exercise(
            "03-careful",
            "03-autoplayer",
            "a careful strategy",
            ("careful",),
            check_strategy,
            STRATEGY,
            600,
            (
                "ipyminesweeper.strategies.exact:exact",
                "ipyminesweeper.strategies.simple:simple",
                "ipyminesweeper.strategies.scored:scored",
                "ipyminesweeper.strategies.registry:STRATEGIES",
            ),
        ),
        Exercise(
            "04-brute_force",
            "04-probabilities",
            "brute force",
            ("brute_force",),
            check_probabilities,
            PROBABILITIES,
            400,
            ("ipyminesweeper.solver.probabilities:probabilities",),
        ),
        Exercise(
            "05-first_law",
            "05-properties-and-laws",
            "a law of your own",
            ("my_first_law",),
            check_property,
            PROPERTY,
            600,
        ),
        Exercise(
            "05-second_law",
            "05-properties-and-laws",
            "a second law",
            ("my_second_law",),
            check_property,
            PROPERTY,
            600,
        ),
        Exercise(
            "05-broken_rule",
            "05-properties-and-laws",
            "break a rule",
            ("broken_toggle_flag", "my_law"),
            check_broken_rule,
            BROKEN_RULE,
            600,
        ),
        Exercise(
            "06-update",
            "06-the-elm-loop",
            "update",
            ("update", "Game", "Reveal", "Flag", "Undo", "NewGame"),
            check_update,
            UPDATE,
            600,
            ("ipyminesweeper.exercises.elm:reference_update",),
        ),
        Exercise(
            "06-view",
            "06-the-elm-loop",
            "view",
            ("view", "Game"),
            check_view,
            VIEW,
            600,
            ("ipyminesweeper.exercises.elm:reference_view",),
        ),
    )
}
"""Every exercise of the course, in the order of the notebooks."""


def exercises_of(notebook: str) -> tuple[Exercise, ...]:
    """The exercises of one notebook (its name without ``.ipynb``), in order."""
    return tuple(e for e in EXERCISES.values() if e.notebook == notebook)
