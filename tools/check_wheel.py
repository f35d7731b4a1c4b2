"""Install the project as a user does and use it from outside the checkout.

Builds the wheel from this checkout, installs it (not editable) into a fresh virtual
environment, and from a temporary folder far from the checkout: imports every shipped
package, runs ``dealers-choice --help`` and each subcommand's ``--help``, a 50-deal
``dealers-choice evaluate stud pretrained:stud random``, a one-update ``dealers-choice
train`` with the default config, and a scripted ``dealers-choice play``. Any failure
exits non-zero with the command's output. CI runs it (``.ci/run``)::

    python tools/check_wheel.py            # about 2-4 minutes, most of it pip
    python tools/check_wheel.py --keep     # keep the venv and folders to look at
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TORCH = "torch==2.13.0"  # the CPU wheel on disk; a bare torch requirement pulls a CUDA build
TRAIN_ONE_UPDATE = [
    "train.updates=1",
    "train.progress=false",
    "rollout.tables=4",
    "rollout.decisions=64",
    "ppo.minibatch_size=32",
    "ppo.epochs=1",
    'eval.opponents=["random"]',
    "eval.deals=4",
]


def run(cmd: list[str], *, cwd: Path, stdin: str | None = None, env: dict[str, str] | None = None) -> str:
    """Run a command; print it and its output; exit with its status if it fails."""
    print("$ " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, cwd=cwd, input=stdin, text=True, capture_output=True, env=env, check=False)
    out = proc.stdout + proc.stderr
    print(out[-3000:], flush=True)
    if proc.returncode != 0:
        print(f"check_wheel: FAILED (exit {proc.returncode}): {' '.join(cmd)}", file=sys.stderr)
        raise SystemExit(1)
    return out


def packages() -> list[str]:
    """The packages pyproject ships."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return list(config["tool"]["setuptools"]["packages"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the temporary folders")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="dc-wheel-"))
    try:
        check(work)
    finally:
        if args.keep:
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("check_wheel: every check passed")
    return 0


def check(work: Path) -> None:
    dist, venv, user = work / "dist", work / "venv", work / "elsewhere"
    user.mkdir()
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)], cwd=work)
    wheel = next(dist.glob("dealers_choice-*.whl"))
    run([sys.executable, "-m", "venv", str(venv)], cwd=work)
    py, bin_dir = venv / "bin" / "python", venv / "bin"
    run([str(py), "-m", "pip", "install", "-q", TORCH], cwd=work)
    run([str(py), "-m", "pip", "install", "-q", str(wheel)], cwd=work)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    imports = "; ".join(f"import {p}" for p in packages() if p != "agents.pretrained")
    probe = f"import sys, pathlib; {imports}; import envs; assert {str(ROOT)!r} not in envs.__file__, envs.__file__"
    run([str(py), "-c", probe], cwd=user, env=env)
    for name in ("train", "evaluate", "play", "solve", "exploitability", "approx_exploitability"):
        absent = f"import importlib.util as u; assert u.find_spec({name!r}) is None, {name!r}"
        run([str(py), "-c", absent], cwd=user, env=env)
    cli = str(bin_dir / "dealers-choice")
    listing = run([cli, "--help"], cwd=user, env=env)
    for line in listing.split("commands:")[1].strip("\n").splitlines():
        if line.startswith("  "):
            run([cli, line.split()[0], "--help"], cwd=user, env=env)
    run([cli, "evaluate", "stud", "pretrained:stud", "random", "--deals", "50", "--out", "eval"], cwd=user, env=env)
    overrides = [arg for s in TRAIN_ONE_UPDATE for arg in ("--set", s)]
    run([cli, "train", *overrides], cwd=user, env=env)
    if not any((user / "runs").glob("stud__*/checkpoints/latest.pt")):
        raise SystemExit("check_wheel: dealers-choice train wrote no checkpoint under runs/")
    run([cli, "train", "--config", "toy_stud", "--print-config"], cwd=user, env=env)
    # "1" is always legal (the first action listed): two hands to the end, then the summary
    played = run([cli, "play", "stud", "--hands", "2", "--seed", "3", "--color", "never"], cwd=user, env=env,
                 stdin="1\n" * 200)  # fmt: skip
    if "over 2 hand(s)" not in played:
        raise SystemExit("check_wheel: dealers-choice play printed no session summary")


if __name__ == "__main__":
    raise SystemExit(main())
