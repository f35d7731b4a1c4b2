"""Head-to-head evaluation of bots: duplicate matches with honest statistics.

:func:`run_match` plays duplicate deals (every deal in every seating) and returns a
:class:`MatchResult` whose results come with 95% confidence intervals over duplicate
sets (:func:`mean_ci`, Student's t); :mod:`.runner` spreads matches over processes,
:mod:`.isolate` runs each bot in its own process, :mod:`.ratings` fits Elo-scale
ratings, :mod:`.report` writes the tables and files ``evaluate.py`` shows.

>>> import evaluation
>>> result = evaluation.run_match("stud", ["random", "call"], deals=20, seed=1)
>>> len(result.hands)  # 20 deals x 2 rotations
40
"""

from evaluation.arena import MatchResult, Stat, mean_ci, play_hand, run_match

__all__ = ["MatchResult", "Stat", "mean_ci", "play_hand", "run_match"]
