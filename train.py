"""``python train.py``: self-play PPO training from the checkout (``dealers-choice train``).

A thin script: the command line and the training run live in :mod:`training.run`
(``--help`` lists every setting)::

    python train.py                                   # two-player stud, the default config
    python train.py --config configs/razz.toml --set ppo.lr=1e-4 --set train.seed=3
    python train.py --resume runs/stud__ppo__1__20250101-120000
"""

import os
import sys

# idle OpenMP workers sleep instead of spinning: on a busy 2-core machine spinning
# workers steal the core that steps the tables (set before torch is imported)
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from training.run import cli

if __name__ == "__main__":
    sys.exit(cli())
