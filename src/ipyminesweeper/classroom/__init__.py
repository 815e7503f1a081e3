"""What a teacher runs: the course's editions, the class server and the hand-in, the grader, the tournament.

The checks a student calls in a notebook are :mod:`ipyminesweeper.exercises`; this package is built on
them and they import nothing of it. The teacher's commands are ``python -m ipyminesweeper.classroom
COMMAND`` (:mod:`.__main__`):

- ``course``: one source, three editions of the notebooks: the students', the answer key, the grader's
  (:mod:`.editions`, the exercises as data in :mod:`.course`);
- ``serve``: the offline site and the hand-in, from the teacher's laptop (:mod:`.serve`, :mod:`.handin`,
  :mod:`.compressed`); a student hands in with :func:`hand_in` (:mod:`.submit`);
- ``grade``: each hand-in's code in a confined process of its own (:mod:`.notebook_worker`,
  :mod:`.student`, plain data between them: :mod:`.wire`), the checks and the points outside it
  (:mod:`.grading`, :mod:`.reading`, :mod:`.flags`), a gradebook to upload (:mod:`.gradebook`);
- ``tournament``: the class tournament of the strategy files handed in (:mod:`.class_tournament`).
"""

from .submit import HandInError, hand_in

__all__ = ["HandInError", "hand_in"]
