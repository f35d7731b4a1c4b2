"""Ship a trained agent: copy a run's agent into ``agents/pretrained/`` so that
``agents.load("pretrained:<variant>")`` (and ``evaluate.py``, ``play.py``, the
Gymnasium opponents) can use it without training.

    dealers-choice ship runs/stud__ppo__1__20261201-120000

writes, for the run's variant (or ``--name NAME``: ``pretrained:NAME``, for a second
agent of one variant such as ``toy_stud_equilibrium``),

* ``agents/pretrained/<variant>.pt``: the acting policy only (no value head), float16
  weights (a few MB at most; loading turns them back into float32);
* ``agents/pretrained/<variant>.toml``: the run's resolved config, so that
  ``dealers-choice train --config agents/pretrained/<variant>.toml`` reproduces it;
* ``agents/pretrained/<variant>.json``: where it came from (run, step counters,
  training minutes, the command) and the run's ``verdict.json`` when there is one.

A file over ``MAX_BYTES`` is refused (the repository ships them).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

from agents.checkpoint import net_from_checkpoint, read_checkpoint, save_checkpoint
from agents.loading import PRETRAINED_DIR
from evaluation.cli import prog_name
from training.config import from_dict, to_toml

MAX_BYTES = 3 * 1024 * 1024


NAME = re.compile(r"[a-z][a-z0-9_]{0,63}")


def ship(run_dir: Path, dest: Path = PRETRAINED_DIR, checkpoint: str = "latest.pt", name: str | None = None) -> Path:
    """Write the agent, config and provenance of ``run_dir`` into ``dest`` as
    ``pretrained:<name>`` (default: the run's variant); returns the agent's path."""
    if name is not None and not NAME.fullmatch(name):
        raise ValueError(f"agent name {name[:80]!r} must be lower-case letters, digits and _ (starting with a letter)")
    path = run_dir / "checkpoints" / checkpoint
    data = read_checkpoint(path)
    net, layout = net_from_checkpoint(data, path)
    config = from_dict(data["config"], str(path))
    variant = layout.variant
    name = name or variant
    dest.mkdir(parents=True, exist_ok=True)
    out = save_checkpoint(
        dest / f"{name}.pt",
        net=net,
        layout=layout,
        step=data["step"],
        config=data["config"],
        acting_only=True,
        half=True,
    )
    size = out.stat().st_size
    if size > MAX_BYTES:
        out.unlink()
        raise ValueError(f"the shipped agent would be {size / 2**20:.1f} MB, over the {MAX_BYTES / 2**20:.0f} MB limit")
    (dest / f"{name}.toml").write_text(to_toml(config), encoding="utf-8")
    counters = data.get("training", {}).get("counters", {})
    verdict = run_dir / "verdict.json"
    info: dict[str, Any] = {
        "variant": variant,
        "num_players": layout.num_players,
        "options": layout.env_kwargs,
        "run": run_dir.name,
        "step": data["step"],
        "training_minutes": round(float(counters.get("seconds", float("nan"))) / 60, 1),
        "command": f"dealers-choice train --config agents/pretrained/{name}.toml",
        "bytes": size,
        "verdict": json.loads(verdict.read_text(encoding="utf-8")) if verdict.is_file() else None,
    }
    (dest / f"{name}.json").write_text(json.dumps(info, indent=2) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog_name("dealers-choice ship"), description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("run", type=Path, help="the run folder")
    parser.add_argument("--dest", type=Path, default=PRETRAINED_DIR, help="where shipped agents live")
    parser.add_argument("--checkpoint", default="latest.pt", help="which checkpoint of the run (default latest.pt)")
    parser.add_argument("--name", help="ship as pretrained:NAME (default: the run's variant)")
    args = parser.parse_args(argv)
    try:
        out = ship(args.run, args.dest, args.checkpoint, args.name)
    except ValueError as err:
        print(f"ship: error: {err}", file=sys.stderr)
        return 2
    print(f"wrote {out} ({out.stat().st_size / 2**20:.2f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
