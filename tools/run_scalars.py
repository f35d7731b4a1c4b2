"""Print a run's TensorBoard scalars (last values, or every value of chosen tags).

Usage: ``python tools/run_scalars.py RUN_DIR [tag-prefix ...]`` (default prefixes:
``eval/`` with the action and loss summaries).
"""

from __future__ import annotations

import sys
from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator


def main(argv: list[str]) -> int:
    run = Path(argv[0])
    prefixes = argv[1:] or ["eval/", "charts/return_vs", "actions/fold_facing_bet", "actions/split_best"]
    events = EventAccumulator(str(run), size_guidance={"scalars": 0})
    events.Reload()
    for tag in sorted(events.Tags()["scalars"]):
        if any(tag.startswith(p) for p in prefixes) and not tag.endswith(("_low", "_high")):
            values = events.Scalars(tag)
            shown = ", ".join(f"{e.value:.3g}" for e in values[-12:])
            print(f"{tag:45s} [{len(values)}] {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
