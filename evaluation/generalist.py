"""How much does one generalist give up against specialists, game by game?

A dealer's choice agent plays every listed game through one observation layout. This
module measures it one game at a time, at the dealer's choice table it was trained
for (same layout, same stakes):

* every seat's choice at the button is forced to the game measured
  (:class:`ForcedGame`), so every hand of the match is that game and duplicate deals
  stay duplicate (the choice is the only decision the wrapper takes over);
* the generalist meets the heuristic (the game's own family heuristic, as at a
  single-game table) and, where one is shipped, the game's specialist
  (``pretrained:<game>``) seated at the table through :class:`SpecialistSeat`: it
  reads the game's own observation, which the table's vector holds without loss at
  the game's index map (:func:`envs.variants.mixed.index_maps`), and the game's own
  view.

Caveat, written next to every table this produces: the table's chip amounts and
rewards are in big bets of its stakes, which is each stud game's own unit at the
default stakes but twice Chowaha's (big blinds), so a Chowaha specialist reads its
chip features at half the scale it was trained on there.

A last row plays the whole table (every button names its game) against the heuristic,
random and the calling station.

``--previous`` adds another dealer's choice agent of the same table (the shipped one,
say) as an opponent in every row, in the same mode and on the same deals as the
heuristic's. This is the head-to-head to trust between two generalists: played
greedily, a generalist's button names the game it likes best, and when both name the
same one (every generalist shipped so far names Cowpie), a whole-table match, such as
``dealers-choice verdict --previous``, measures that one game only.
The committee of specialists (``specialists``, :mod:`agents.committee`) is measured the
same way, against the heuristic only (its members are the specialists):
``dealers-choice generalist specialists --opponents heuristic``.

Run ``python -m evaluation.generalist <checkpoint> --deals 1000`` (``--help``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

import agents
from agents.committee import SpecialistSeat, Wrapped  # noqa: F401  (SpecialistSeat: re-exported, its old home)
from agents.committee import listed_games as games_of
from envs.policy import Observation, Policy
from envs.registry import make_raw
from envs.variants.mixed import CHOOSE_PREFIX
from envs.view import PublicView
from evaluation.arena import Stat, run_match
from evaluation.cli import prog_name

VARIANT = "dealers_choice"
OPPONENTS = ("heuristic", "specialist")
MODES = ("greedy", "sampled")
WHOLE_TABLE = "every game (the button's choice)"
TABLE_BOTS = ("heuristic", "random", "call")  # the whole table's opponents (a verdict's bots)


class ForcedGame(Wrapped):
    """``bot`` with its button choice fixed to ``game``: every hand is that game."""

    def __init__(self, bot: Any, game: str, action_names: Sequence[str]) -> None:
        self.bot = bot
        self.choice = list(action_names).index(CHOOSE_PREFIX + game)
        self.name = f"{getattr(bot, 'name', type(bot).__name__)}@{game}"

    def act(self, observation: Observation, view: PublicView) -> int:
        if self.choice in view.legal_actions:  # the button's choice: the only decision taken over
            return self.choice
        return int(self.bot.act(observation, view))


def listed_games(num_players: int, options: dict[str, Any]) -> list[str]:
    """The games a dealer's choice table with these options deals (its choose actions)."""
    return games_of(make_raw(VARIANT, num_players, **options))


def game_match(
    generalist: Any,
    opponent: Any,
    game: str | None,
    *,
    deals: int,
    seed: int,
    num_players: int,
    options: dict[str, Any],
) -> Stat:
    """The generalist's result against ``opponent`` when every hand is ``game`` (None:
    the whole table, every button naming its own game)."""
    env = make_raw(VARIANT, num_players, **options)
    names = env.action_names
    bots: list[Policy] = [generalist, opponent]
    if game is not None:
        bots = [ForcedGame(generalist, game, names), ForcedGame(opponent, game, names)]
    result = run_match(VARIANT, bots, deals, num_players=num_players, seed=seed, options=options)
    return result.result(0)


def specialist(game: str, num_players: int, options: dict[str, Any], greedy: bool) -> Any | None:
    """``pretrained:<game>`` seated at the table, or None when none is shipped for this size."""
    from agents.loading import specialist_seat

    return specialist_seat(game, make_raw(VARIANT, num_players, **options), seed=0, greedy=greedy)


def generalist_table(
    checkpoint: str,
    *,
    deals: int,
    seed: int,
    modes: Sequence[str] = ("greedy", "sampled"),
    opponents: Sequence[str] = OPPONENTS,
    table_deals: int | None = None,
    games: Sequence[str] | None = None,
    previous: str | None = None,
    show: bool = True,
) -> dict[str, Any]:
    """Per listed game and mode: the generalist against the heuristic and the specialist;
    then (row :data:`WHOLE_TABLE`) against the heuristic at the whole table, every
    button naming its game, on ``table_deals`` deals (default ``deals``). ``games``: only
    these games' rows (None: every listed game). Each match has its own seed, from
    ``seed`` and its place in the full table, so a subset replays the full table's deals.
    ``previous``: another agent of the same table, played in every row (columns
    ``previous/<mode>``) on the heuristic's deals, in the generalist's mode."""
    n, options = _table_of(checkpoint)
    if previous is not None:
        check_previous(previous, (n, options))
    listed = listed_games(n, options)
    unknown = [g for g in games or () if g not in listed]
    if unknown:
        raise ValueError(f"{unknown} not among the table's games {listed}")
    rows: dict[str, Any] = {}
    jobs = [(g, m) for g in listed for m in modes if games is None or g in games]
    for game, mode in tqdm(jobs, desc="games", disable=not show):
        k = listed.index(game) * len(modes) + list(modes).index(mode)
        greedy = mode == "greedy"
        gen = agents.load(checkpoint, seed=0, greedy=greedy)
        row = rows.setdefault(game, {})
        match_seed = seed + 7919 * k
        common = {"deals": deals, "seed": match_seed, "num_players": n, "options": options}
        if "heuristic" in opponents:
            row[f"heuristic/{mode}"] = _stat(game_match(gen, agents.load("heuristic", seed=0), game, **common))
        spec = specialist(game, n, options, greedy) if "specialist" in opponents else None
        if spec is not None:
            row[f"specialist/{mode}"] = _stat(game_match(gen, spec, game, **common))
        if previous is not None:
            rival = agents.load(previous, seed=0, greedy=greedy)
            row[f"previous/{mode}"] = _stat(game_match(gen, rival, game, **common))
    whole = table_deals or deals
    # (label, spec, seed slot): the previous agent takes the heuristic's slot, so its deals
    table_bots = [(bot, bot, at) for at, bot in enumerate(TABLE_BOTS) if "heuristic" in opponents]
    table_bots += [("previous", previous, 0)] if previous is not None else []
    for label, bot, at in table_bots:
        for mode in modes:
            k = len(listed) * len(modes) + at * len(modes) + list(modes).index(mode)
            common = {"deals": whole, "seed": seed + 7919 * k, "num_players": n, "options": options}
            gen, rival = (agents.load(spec, seed=0, greedy=mode == "greedy") for spec in (checkpoint, bot))
            rows.setdefault(WHOLE_TABLE, {})[f"{label}/{mode}"] = _stat(game_match(gen, rival, None, **common))
    return {
        "checkpoint": checkpoint,
        "previous": previous,
        "deals": deals,
        "table_deals": whole,
        "seed": seed,
        "num_players": n,
        "games": rows,
    }


def _table_of(checkpoint: str) -> tuple[int, dict[str, Any]]:
    """The players and options of the table ``checkpoint`` was trained for."""
    layout = getattr(agents.load(checkpoint, seed=0), "layout", None)
    if layout is None or layout.variant != VARIANT:
        raise ValueError(f"{checkpoint} is not a dealer's choice agent (a checkpoint or pretrained:dealers_choice)")
    return layout.num_players, dict(layout.env_kwargs)


def check_previous(previous: str, table: tuple[int, dict[str, Any]]) -> None:
    """Raise ``ValueError`` unless ``previous`` is a dealer's choice agent of ``table``
    (the generalist's players and options, :func:`_table_of`)."""
    (n, options), (m, theirs) = table, _table_of(previous)
    if (m, theirs) != (n, options):
        raise ValueError(
            f"{previous} was trained at another table ({m} players, options {theirs}) than the generalist "
            f"({n} players, options {options}): the two cannot meet"
        )


def _stat(stat: Stat) -> dict[str, float]:
    return {"mean": stat.mean, "ci95": stat.half_width}


def markdown(report: dict[str, Any]) -> str:
    """The README table: one row per game, the generalist's result per opponent and mode."""
    cols = ["heuristic/greedy", "heuristic/sampled", "specialist/greedy", "specialist/sampled"]
    if report.get("previous"):
        cols += ["previous/greedy", "previous/sampled"]
    lines = [
        "| game | " + " | ".join(f"vs {c.replace('/', ' (')})" for c in cols) + " |",
        "|---" * (len(cols) + 1) + "|",
    ]
    for game, row in report["games"].items():
        cells = [f"{row[c]['mean']:+.1f} ± {row[c]['ci95']:.1f}" if c in row else "n/a" for c in cols]
        lines.append(f"| {game} | " + " | ".join(cells) + " |")
    whole = report["games"].get(WHOLE_TABLE, {})
    for bot in TABLE_BOTS[1:]:
        cells = [
            f"{mode} {whole[k]['mean']:+.1f} ± {whole[k]['ci95']:.1f}"
            for mode in MODES
            if (k := f"{bot}/{mode}") in whole
        ]
        if cells:
            lines.append(f"\n{WHOLE_TABLE} vs {bot}: " + ", ".join(cells))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        prog=prog_name("python -m evaluation.generalist"),
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "checkpoint", help="a dealer's choice agent (checkpoint path, pretrained:dealers_choice or specialists)"
    )
    parser.add_argument("--deals", type=int, default=1000, help="duplicate deals per game, opponent and mode")
    parser.add_argument("--table-deals", type=int, default=None, help="duplicate deals of the whole-table row")
    parser.add_argument("--seed", type=int, default=None, help="seed of the deals (default: fresh, in the JSON)")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument(
        "--opponents",
        nargs="*",
        choices=OPPONENTS,
        default=list(OPPONENTS),
        help="whom each game is played against (the committee of specialists: heuristic only; "
        "none, with --previous: the previous agent only)",
    )
    parser.add_argument(
        "--games", nargs="*", default=None, help="only these games' rows (none: the whole-table row only)"
    )
    parser.add_argument(
        "--previous",
        default=None,
        help="also play this dealer's choice agent of the same table in every row (pretrained:dealers_choice, "
        "a checkpoint): the head-to-head between two generalists, game by game",
    )
    parser.add_argument("--out", type=Path, default=None, help="write the report as JSON here")
    args = parser.parse_args(argv)
    if args.deals < 2 or (args.table_deals is not None and args.table_deals < 2):
        parser.error("--deals and --table-deals must be >= 2 (an interval needs two duplicate sets)")
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**31)
    table = _table_of(args.checkpoint)
    if args.games is not None:
        listed = listed_games(*table)
        if unknown := [g for g in args.games if g not in listed]:
            parser.error(f"--games {' '.join(unknown)}: not among the table's games {', '.join(listed)}")
    if not args.opponents and args.previous is None:
        parser.error("no opponents: name --opponents or --previous")
    if args.previous is not None:
        try:
            check_previous(args.previous, table)
        except (ValueError, FileNotFoundError) as error:
            parser.error(f"--previous {args.previous}: {error}")
    report = generalist_table(
        args.checkpoint,
        deals=args.deals,
        seed=seed,
        modes=args.modes,
        opponents=args.opponents,
        table_deals=args.table_deals,
        games=args.games,
        previous=args.previous,
    )
    print(markdown(report))
    if args.out is not None:
        args.out.write_text(json.dumps(report, indent=2) + "\n")
    return report


if __name__ == "__main__":
    main(sys.argv[1:])
