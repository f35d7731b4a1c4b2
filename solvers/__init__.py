"""Exact solving of toy stud (docs/rules.md section 10): pure numpy, no env or torch imports.

* :mod:`solvers.toy`: the options (:class:`ToyParams`), cards, hand ranking, the betting round;
* :mod:`solvers.tree`: the public tree as layers of up-card deals (full or suit-canonical);
* :mod:`solvers.infosets`: every information set in a stable order, with descriptors;
* :mod:`solvers.walk`: one vectorised pass over the public tree for one seat;
* :mod:`solvers.exploit`: exact best responses and NashConv of any policy;
* :mod:`solvers.policy`: uniform, tabular (``.npz``) and callable policies;
* :mod:`solvers.cfr`: DCFR and CFR+.

``solve.py`` and ``exploitability.py`` are the command lines; docs/exploitability.md
has the definitions, the measurements and the descriptor format.

>>> from solvers import ToyParams, PublicTree, exploitability
>>> params = ToyParams(ranks="QKA", suits="cd", streets=1)
>>> round(exploitability("uniform", PublicTree(params)).nash_conv, 4)
1.2037
"""

from solvers.cfr import CFRConfig, CFRSolver
from solvers.exploit import Exploitability, exploitability
from solvers.infosets import InfoSetBatch, InfoSets
from solvers.policy import TabularPolicy, tabulate
from solvers.toy import ToyParams, info_set_counts
from solvers.tree import PublicTree

__all__ = [
    "CFRConfig",
    "CFRSolver",
    "Exploitability",
    "InfoSetBatch",
    "InfoSets",
    "PublicTree",
    "TabularPolicy",
    "ToyParams",
    "exploitability",
    "info_set_counts",
    "tabulate",
]
