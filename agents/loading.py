"""``agents.load(spec)``: one string names any bot.

==================  ======================================================
spec                bot
==================  ======================================================
``"random"``        :class:`~agents.base.RandomAgent`
``"call"``          :class:`~agents.base.CallingStation`
``"heuristic"``     :class:`~agents.heuristic.HeuristicAgent` (every variant)
``path/to/x.pt``    a trained checkpoint (see ``agents.checkpoint``; a
                    Stable-Baselines3 ``.zip`` is refused with how to wrap it
                    in ``agents.sb3.SB3Agent``)
``path/to/dir``     an RLlib checkpoint directory, or one module's directory in
                    it (see ``agents.rllib_agent``; needs the ``ray`` extra)
``"pretrained:stud"`` the agent shipped for a variant (``agents/pretrained/``)
``"specialists"``   dealer's choice by a committee: each hand played by its
                    game's ``pretrained:<game>`` (:mod:`agents.committee`)
``"module:Class"``  a user's bot class, constructed with no arguments (or ``seed=``)
==================  ======================================================

Bot programs (``cmd:<command line>``, ``tcp://host:port``) are not loaded into this
process: the dealer seats them (``evaluation.external``; ``evaluate.py``,
``dealers-choice dealer``) and ``load`` says so.

``"heuristic:S"`` is the heuristic with style ``S``: a preset (``tight``, ``loose``,
``aggressive``, ``default``), ``knob=value`` pairs
(``heuristic:raise_edge=0.1,call_margin=0.0``) or a preset then pairs
(``heuristic:tight,bluff=0.05``); see :mod:`agents.heuristic.style`. The style is read
as data (never imported or evaluated); a bad knob or value is a ``ValueError`` that
names it and lists the valid knobs and presets.
"""

from __future__ import annotations

import importlib
import inspect
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.base import CallingStation, Policy, RandomAgent
from envs.policy import failure_text

if TYPE_CHECKING:
    from agents.nets import PolicyNet
    from agents.neural import Layout

BUILTIN = {"random": RandomAgent, "call": CallingStation}
LAZY = {"heuristic": "agents.heuristic:HeuristicAgent"}
STYLED = "heuristic:"  # prefix of a heuristic with a style
PRETRAINED = "pretrained:"
COMMITTEE = "specialists"  # agents.committee.SpecialistCommittee: dealer's choice by the shipped specialists
PROGRAMS = ("cmd:", "cmd[", "tcp://", "tcp[")  # bot programs: seated by evaluation.external
PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"


def pretrained_path(name: str) -> Path:
    """The shipped checkpoint of ``pretrained:<name>``; a clear error names the ones that exist."""
    path = PRETRAINED_DIR / f"{name}.pt"
    if not name or "/" in name or "\\" in name or not path.is_file():
        shipped = pretrained_names()
        have = ", ".join(f"pretrained:{n}" for n in shipped) if shipped else "none in this installation"
        raise ValueError(f"no shipped agent {(PRETRAINED + name)[:80]!r}; shipped agents: {have}")
    return path


def pretrained_names() -> list[str]:
    """Variants with a shipped agent (``agents/pretrained/<variant>.pt``)."""
    return sorted(p.stem for p in PRETRAINED_DIR.glob("*.pt"))


def committee(
    seed: int | None = None,
    *,
    greedy: bool = False,
    chooser: str = "verdicts",
    variant: str | None = None,
    num_players: int | None = None,
    options: dict[str, Any] | None = None,
    strict_options: bool = True,
) -> Any:
    """``agents.load("specialists")``: a :class:`~agents.committee.SpecialistCommittee`
    at the generalist's table (two players), whose members are the shipped
    ``pretrained:<game>`` of each listed game with that many players (the heuristic for
    the others), every one seeded with ``seed`` and loaded ``greedy`` or not. The button's
    game: ``chooser="verdicts"`` (:class:`~agents.committee.VerdictChooser`, from the
    members' shipped verdicts against the heuristic, greedy or sampled as the committee
    plays) or any agent spec of a dealers_choice network (``pretrained:dealers_choice``).
    ``variant``, ``num_players`` and ``options`` (the table, when the caller knows it)
    must be that table; ``strict_options`` is accepted for ``load``'s signature:
    specialists always play the mixed table's version of their game."""
    from agents.committee import SpecialistCommittee, VerdictChooser, listed_games
    from envs.registry import make_raw

    layout = trained_layout(COMMITTEE)
    assert layout is not None
    table = make_raw(layout.variant, layout.num_players, **layout.env_kwargs)
    seats: dict[str, Any] = {}
    edges: dict[str, float] = {}
    for game in listed_games(table):
        seat = specialist_seat(game, table, seed=seed, greedy=greedy)
        seats[game] = seat if seat is not None else load("heuristic", seed=seed)
        if seat is not None:
            edges[game] = verdict_edge(game, "greedy" if greedy else "sampled")
    if chooser == "verdicts":
        boss: Any = VerdictChooser(edges, list(table.action_names))
    else:
        boss = load(chooser, seed=seed, greedy=greedy)
        if getattr(boss, "layout", None) != layout:
            raise ValueError(
                f"the committee's chooser must be a network of its table ({layout.describe()}), got {chooser!r}"
            )
    built = SpecialistCommittee(boss, seats, layout, greedy=greedy)
    built.check_table(variant, num_players, options)
    return built


def specialist_seat(game: str, table: Any, *, seed: int | None = None, greedy: bool = False) -> Any | None:
    """``pretrained:<game>`` seated at the dealer's choice env ``table`` through
    :class:`~agents.committee.SpecialistSeat` (the mixed table's version of its game),
    or None when no specialist is shipped for that game and number of players."""
    from agents.committee import SpecialistSeat

    if game not in pretrained_names():
        return None
    bot = load(PRETRAINED + game, seed=seed, greedy=greedy, strict_options=False)
    if bot.layout.num_players != table.game.num_players:
        return None
    return SpecialistSeat(bot, game, table)


def verdict_edge(game: str, mode: str) -> float:
    """What ``pretrained:<game>`` won from the heuristic in its shipped verdict, in big
    bets per 100 hands (a big-blind figure halved: a big bet is two big blinds at the
    mixed table's stakes); 0 when no verdict is shipped."""
    import json

    path = PRETRAINED_DIR / f"{game}.json"
    if not path.is_file():
        return 0.0
    try:
        verdict = json.loads(path.read_text(encoding="utf-8")).get("verdict") or {}
        mean = float(verdict["results"]["heuristic"][mode]["mean"]) if verdict else 0.0
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise ValueError(f"{path}: not a shipped agent's record with a verdict against the heuristic ({err})") from None
    return mean / 2 if "big blinds" in str(verdict.get("unit", "")) else mean


def network_path(spec: str) -> Path | None:
    """The checkpoint file of a network spec (``pretrained:<variant>`` or a ``.pt``/``.pth``
    path), or None for every other spec; an unknown shipped agent is a ValueError."""
    if spec.startswith(PRETRAINED):
        return pretrained_path(spec[len(PRETRAINED) :])
    if spec.endswith((".pt", ".pth")):
        return Path(spec)
    return None


def trained_layout(spec: str) -> Layout | None:
    """The table a network spec (``pretrained:<variant>``, a ``.pt``/``.pth`` checkpoint)
    was trained for, read from the checkpoint without building the agent; None for every
    other spec (built-in bots, the heuristic, ``module:Class``, bot programs, RLlib
    directories, whose layout needs Ray). Command lines use it to seat a network at its
    own table before any hand is dealt (``evaluation.seating.trained_table``)."""
    if spec == COMMITTEE:  # the table it was built for, the generalist network's
        spec = PRETRAINED + "dealers_choice"
    path = network_path(spec)
    if path is None:
        return None
    from agents.checkpoint import CheckpointError, read_checkpoint
    from agents.neural import Layout

    data = read_checkpoint(path)
    try:
        return Layout.from_dict(data["layout"])
    except (KeyError, TypeError, ValueError) as err:
        raise CheckpointError(f"{str(path)!r} has no usable table layout: {err}") from None


def _from_path(target: str, seed: int | None) -> Any:
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as err:
        raise ValueError(f"cannot import module {module_name!r} for bot spec {target!r}: {err}") from err
    except (Exception, SystemExit) as err:  # its code failed, or tried to end the run
        raise ValueError(f"importing module {module_name!r} for bot spec {target!r} {failure_text(err)}") from err
    try:
        cls = getattr(module, attr)
    except AttributeError:
        raise ValueError(f"module {module_name!r} has no attribute {attr!r} (bot spec {target!r})") from None
    if not callable(cls):
        raise ValueError(f"bot spec {target!r} does not name a class or factory")
    try:
        accepts_seed = "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):  # builtins have no inspectable signature
        accepts_seed = False
    try:
        bot = cls(seed=seed) if accepts_seed else cls()
    except (Exception, SystemExit) as err:  # builtins:exit must not end the run quietly
        raise ValueError(f"building the bot of spec {target!r} {failure_text(err)}") from err
    if not isinstance(bot, Policy):
        raise ValueError(f"{target!r} built {type(bot).__name__}, which has no act(observation, view) method")
    return bot


def load(spec: str | Policy, seed: int | None = None, **kwargs: Any) -> Any:
    """A bot from a spec string (or a bot, returned as is)."""
    if not isinstance(spec, str):
        if isinstance(spec, Policy):
            return spec
        raise ValueError(f"a bot spec must be a string or a bot with act(), got {type(spec).__name__}")
    if spec in BUILTIN:
        return BUILTIN[spec](seed=seed)
    if spec.startswith(STYLED):
        from agents.heuristic import HeuristicAgent, parse_style

        return HeuristicAgent(seed=seed, style=parse_style(spec[len(STYLED) :]))
    if spec in LAZY:
        return _from_path(LAZY[spec], seed)
    if spec.startswith(PROGRAMS):
        raise ValueError(
            f"bot spec {spec[:80]!r} is a bot program: the dealer seats it over the line protocol "
            "(evaluate.py or dealers-choice dealer, docs/protocol.md); agents.load loads bots into this process"
        )
    if spec == COMMITTEE:
        return committee(seed, **kwargs)
    if spec.startswith(PRETRAINED):
        from agents.checkpoint import load_agent

        return load_agent(pretrained_path(spec[len(PRETRAINED) :]), seed=seed, **kwargs)
    if spec.endswith((".pt", ".pth", ".zip")) or Path(spec).is_file():  # .zip: says what an SB3 model is
        from agents.checkpoint import load_agent

        return load_agent(spec, seed=seed, **kwargs)
    if Path(spec).is_dir():  # what RLlib's Algorithm.save writes; Ray is imported only here
        from agents.rllib_agent import load_rllib_agent

        return load_rllib_agent(spec, seed=seed, **kwargs)
    if ":" in spec:
        return _from_path(spec, seed)
    kinds = [
        "heuristic:<style>",
        "pretrained:<variant>",
        COMMITTEE,
        "a checkpoint path",
        "an RLlib checkpoint directory",
        "module:Class",
    ]
    known = ", ".join([*BUILTIN, *LAZY, *kinds])
    raise ValueError(f"unknown bot spec {spec!r}; use one of: {known}")


def frozen_network(spec: str, variant: str, num_players: int, options: dict[str, Any]) -> PolicyNet | None:
    """The network of a checkpoint spec in the mix (``pretrained:<variant>`` or a
    ``.pt``/``.pth`` path), checked against the table, or None for any other spec.

    Why: a best responder (training/approx.py) trains against a frozen network in
    every other seat; the batched collector acts it like a pool snapshot (one masked
    forward pass of its rows per step, sampled, as ``agents.load`` plays it on the
    scalar path), so ``--approx`` runs on the batched engine too. Here, not in training,
    so that the spec's grammar stays in one module. Raises
    :class:`agents.checkpoint.CheckpointError` (a ``ValueError``) for a checkpoint
    trained for another table."""
    path = network_path(spec)
    if path is None:
        return None
    from agents.checkpoint import load_agent

    return load_agent(path, variant=variant, num_players=num_players, options=dict(options)).net
