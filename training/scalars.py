"""Print a run's TensorBoard scalars (last values, or every value of chosen tags).

Usage: ``dealers-choice scalars RUN_DIR [tag-prefix ...]`` (default prefixes:
``eval/`` with the action and loss summaries).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

from evaluation.cli import prog_name

DEFAULT_PREFIXES = ("eval/", "charts/return_vs", "actions/fold_facing_bet", "actions/split_best")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=prog_name("scalars"), description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("run", type=Path, help="a train.py run folder (its TensorBoard event files)")
    parser.add_argument("prefixes", nargs="*", default=list(DEFAULT_PREFIXES), help="tag prefixes to print")
    args = parser.parse_args(argv)
    run, prefixes = args.run, args.prefixes
    if not run.is_dir():
        parser.error(f"no run folder at {str(run)[:200]!r}")
    events = EventAccumulator(str(run), size_guidance={"scalars": 0})
    events.Reload()
    for tag in sorted(events.Tags()["scalars"]):
        if any(tag.startswith(p) for p in prefixes) and not tag.endswith(("_low", "_high")):
            values = events.Scalars(tag)
            shown = ", ".join(f"{e.value:.3g}" for e in values[-12:])
            print(f"{tag:45s} [{len(values)}] {shown}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
