"""Local best response (LBR; Lisý and Bowling 2017): exact on toy stud; played on heads-up stud.

LBR is a cheap lower bound on exploitability that needs no training: at each of its
decisions the LBR player

* builds the opponent's *range*: every down card the opponent can hold given what the
  LBR seat sees (its own down card and all up cards are removed), each weighted by the
  opponent policy's probabilities of every action it took this hand at the information
  set it would have had with that card (Bayes' rule from a uniform deal);
* computes its *equity* against the range: the chance its hand wins at showdown (a tie
  counts half), over every deal of the remaining up cards (exact enumeration; toy stud
  is small enough that nothing is sampled);
* takes the action with the best one-step value, measured against folding now (the
  chips already in are sunk): fold 0; check or call ``equity * pot - (1 - equity) *
  to_call``; bet or raise by ``r``: ``fold_p * pot + (1 - fold_p) * (equity' * (pot + r)
  - (1 - equity') * (to_call + r))``, where ``fold_p`` is the range's chance of folding
  to the raise under the opponent's policy and ``equity'`` the equity against the range
  that does not fold, as if the opponent then called (the paper's assumption: no
  re-raise, and the hand checked down after a call). It folds only when both other
  values are negative, and raises only when that beats calling.

The opponent is a table over every information set (``uniform``, a ``solve.py`` file, or
any ``agents.load`` spec tabulated as ``dealers-choice exploitability`` does), so LBR's
whole strategy can be tabulated too, and its value against the opponent is computed
*exactly* with the solvers' walks (no deals are sampled, so the figures need no
confidence interval). Since LBR is one strategy among those a best response maximises
over, its value in each seat can never exceed the exact best-response value: the report
prints both, and the tests check it.

The full-size stud games (seven-card stud heads-up, razz, stud hi-lo, stud hi-lo with a
declaration, five-card stud) have no table: there :mod:`training.lbr_stud` replays each
hand on the batched engine for every holding the opponent might have and plays LBR
against a network (or random, call) on fresh duplicate deals, reporting big bets per
100 hands with a 95% interval (the same rule, and with a declaration the declaration
with the best expected result; ``game`` other than ``toy_stud`` goes there).

Examples::

    dealers-choice lbr toy_stud uniform --option ranks=QKA --option suits=cdh
    dealers-choice lbr toy_stud pretrained:toy_stud
    dealers-choice lbr toy_stud heuristic --option ranks=QKA --option suits=cdh --json
    dealers-choice lbr stud pretrained:stud --deals 200 --seed 7
    dealers-choice lbr stud_hilo_declare pretrained:stud_hilo_declare --deals 100 --seed 7

``main(argv)`` is importable and returns the report dict.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from evaluation.cli import prog_name, script_parser
from solvers.cli import GAMES, OPTION_HELP, check_game, describe, parse_toy_options
from solvers.exploit import best_response_values, policy_values
from solvers.infosets import InfoSets
from solvers.policy import TabularPolicy
from solvers.toy import CHECK_CALL, FOLD, RAISE, ToyParams, hand_key
from solvers.tree import PublicTree
from training.exploitability import load_policy, per_100_hands

# training.lbr_stud.VARIANTS (torch loads only there)
STUD_GAMES = ("stud", "razz", "stud_hilo", "stud_hilo_declare", "five_card_stud", "cowpie")

PublicKey = tuple[int, bytes, bytes, bytes, bytes]


@dataclass
class Columns:
    """Every information set's descriptor columns, for random access by row."""

    seat: np.ndarray
    betting_round: np.ndarray
    down: np.ndarray
    own_up: np.ndarray
    opp_up: np.ndarray
    num_actions: np.ndarray
    action_round: np.ndarray
    action_seat: np.ndarray
    action: np.ndarray
    to_call: np.ndarray
    pot: np.ndarray
    legal: np.ndarray

    @classmethod
    def of(cls, infosets: InfoSets, batch_size: int = 262144) -> Columns:
        parts = [
            infosets.batch(lo, min(lo + batch_size, infosets.count)) for lo in range(0, infosets.count, batch_size)
        ]
        return cls(**{name: np.concatenate([getattr(b, name) for b in parts]) for name in cls.__dataclass_fields__})


class LocalBestResponse:
    """LBR's decisions against one tabulated opponent on one toy game."""

    def __init__(self, opponent: TabularPolicy) -> None:
        self.params = opponent.params
        self.table = opponent.table
        self.infosets = opponent.infosets
        self.cols = Columns.of(self.infosets)
        self.deck = tuple(int(c) for c in self.params.engine_cards())
        self.index = self._public_index()

    def _public_index(self) -> dict[PublicKey, dict[int, int]]:
        """Public node (seat, up cards, betting) -> {down card: information set}."""
        c = self.cols
        index: dict[PublicKey, dict[int, int]] = {}
        for row in range(len(c.seat)):
            key = self.public_key(int(c.seat[row]), c.own_up[row], c.opp_up[row], row, int(c.num_actions[row]))
            index.setdefault(key, {})[int(c.down[row])] = row
        return index

    def public_key(self, seat: int, own_up: np.ndarray, opp_up: np.ndarray, row: int, actions: int) -> PublicKey:
        """What ``seat`` knows besides its down card: the up cards of the rounds so far
        (taken from ``own_up``/``opp_up``) and the first ``actions`` actions of row ``row``."""
        c = self.cols
        earlier = actions < int(c.num_actions[row])  # an earlier decision: its round is that action's
        k = int(c.action_round[row, actions]) if earlier else int(c.betting_round[row])
        return (seat, own_up[: k + 1].tobytes(), opp_up[: k + 1].tobytes(),
                c.action_seat[row, :actions].tobytes(), c.action[row, :actions].tobytes())  # fmt: skip

    # ------------------------------------------------------------ one decision
    def range_of(self, row: int) -> tuple[list[int], np.ndarray]:
        """The opponent's possible down cards at LBR row ``row`` and their Bayes weights
        (normalised; uniform if the opponent's policy never plays this way)."""
        c = self.cols
        seat, k = int(c.seat[row]), int(c.betting_round[row])
        opp = 1 - seat
        seen = {int(c.down[row]), *(int(x) for x in c.own_up[row, : k + 1]), *(int(x) for x in c.opp_up[row, : k + 1])}
        cards = [x for x in self.deck if x not in seen]
        weights = np.ones(len(cards))
        for p in range(int(c.num_actions[row])):
            if int(c.action_seat[row, p]) != opp:
                continue
            at = self.index[self.public_key(opp, c.opp_up[row], c.own_up[row], row, p)]
            probs = self.table[[at[x] for x in cards], int(c.action[row, p])]
            weights *= probs
        total = weights.sum()
        return cards, (weights / total if total > 0 else np.full(len(cards), 1.0 / len(cards)))

    def equities(self, row: int, cards: list[int]) -> np.ndarray:
        """LBR's showdown equity against each opponent down card (remaining up cards enumerated)."""
        c = self.cols
        k = int(c.betting_round[row])
        own = (int(c.down[row]), *(int(x) for x in c.own_up[row, : k + 1]))
        ups = tuple(int(x) for x in c.opp_up[row, : k + 1])
        return np.array([_equity(self.deck, own, (x, *ups), self.params.streets) for x in cards])

    def values(self, row: int) -> np.ndarray:
        """One-step values of fold, check/call and bet/raise (NaN where illegal), in chips
        measured against folding now (module docstring)."""
        c = self.cols
        cards, weights = self.range_of(row)
        equity = self.equities(row, cards)
        pot, asked = float(c.pot[row]), float(c.to_call[row])
        out = np.full(4, np.nan)
        if c.legal[row, FOLD]:
            out[FOLD] = 0.0
        wp = float(weights @ equity)
        out[CHECK_CALL] = wp * pot - (1.0 - wp) * asked
        if c.legal[row, RAISE]:
            r = float(self.params.bet_size(int(c.betting_round[row])))
            fold = self._fold_after_raise(row, cards)
            fp = float(weights @ fold)
            stay = weights * (1.0 - fold)
            wp2 = float(stay @ equity / stay.sum()) if stay.sum() > 0 else wp
            out[RAISE] = fp * pot + (1.0 - fp) * (wp2 * (pot + r) - (1.0 - wp2) * (asked + r))
        return out

    def _fold_after_raise(self, row: int, cards: list[int]) -> np.ndarray:
        """The opponent's fold probability, per down card, facing LBR's raise now."""
        c = self.cols
        seat = int(c.seat[row])
        n = int(c.num_actions[row])
        k = int(c.betting_round[row])
        key = (1 - seat, c.opp_up[row, : k + 1].tobytes(), c.own_up[row, : k + 1].tobytes(),
               np.append(c.action_seat[row, :n], seat).astype(c.action_seat.dtype).tobytes(),
               np.append(c.action[row, :n], RAISE).astype(c.action.dtype).tobytes())  # fmt: skip
        at = self.index.get(key)
        if at is None:  # the raise ends nothing the opponent decides (it cannot: it must answer)
            raise AssertionError(f"no opponent information set after a raise at row {row}")
        return self.table[[at[x] for x in cards], FOLD]

    def action(self, row: int) -> int:
        """LBR's choice: the best one-step value; call on ties, fold only below zero."""
        v = self.values(row)
        best = CHECK_CALL
        if not np.isnan(v[RAISE]) and v[RAISE] > v[CHECK_CALL]:
            best = RAISE
        if not np.isnan(v[FOLD]) and v[best] < 0.0:
            best = FOLD
        return best

    # ------------------------------------------------------------ whole strategy
    def strategy(self, seat: int, progress: bool = False) -> TabularPolicy:
        """LBR in ``seat`` (one action per information set), the opponent's table in the other."""
        table = self.table.copy()
        rows = np.flatnonzero(self.cols.seat == seat)
        for row in _bar(rows, progress, f"lbr seat {seat}"):
            table[row] = 0.0
            table[row, self.action(int(row))] = 1.0
        return TabularPolicy(self.params, table, infosets=self.infosets)


def _bar(rows: np.ndarray, progress: bool, desc: str) -> Iterator[Any]:
    from tqdm import tqdm

    return iter(tqdm(rows, desc=desc, unit="infoset", disable=not progress, file=sys.stderr, mininterval=1.0))


@lru_cache(maxsize=1 << 20)
def _equity(deck: tuple[int, ...], own: tuple[int, ...], opp: tuple[int, ...], streets: int) -> float:
    """Win probability (ties half) of ``own`` against ``opp`` (down card first, then the
    up cards so far) over every deal of the remaining up cards, one per seat per round."""
    rest = [x for x in deck if x not in own and x not in opp]
    need = streets + 1 - len(own)
    total, deals = 0.0, 0
    for mine in itertools.combinations(rest, need):
        left = [x for x in rest if x not in mine]
        for theirs in itertools.combinations(left, need):
            a = hand_key([x // 4 for x in (*own, *mine)])
            b = hand_key([x // 4 for x in (*opp, *theirs)])
            total += 1.0 if a > b else 0.5 if a == b else 0.0
            deals += 1
    return total / deals


def lbr_report(
    params: ToyParams,
    policy_spec: str,
    *,
    samples: int = 1,
    seed: int = 0,
    progress: bool = True,
    save_table: str | None = None,
) -> dict[str, Any]:
    """LBR's exact value in each seat against a policy, beside the exact best response's
    (``save_table``: also write the opponent's table, which a later run reads back as a
    ``.npz`` policy instead of asking the bot again)."""
    start = time.perf_counter()
    tree = PublicTree(params)
    opponent = load_policy(params, policy_spec, tree=tree, samples=samples, seed=seed)
    if isinstance(opponent, str):  # "uniform"
        opponent = TabularPolicy.uniform(params, infosets=InfoSets(tree))
    if save_table is not None:
        opponent.save(save_table, policy=policy_spec, samples=samples, seed=seed)
    br = best_response_values(tree, opponent.source())
    lbr = LocalBestResponse(opponent)
    values = []
    for seat in (0, 1):
        profile = lbr.strategy(seat, progress=progress)
        values.append(policy_values(tree, profile.source())[seat])
    mean_lbr, mean_br = (values[0] + values[1]) / 2, (br[0] + br[1]) / 2
    return {
        "game": "toy_stud",
        "params": params.to_dict(),
        "policy": policy_spec,
        "lbr_values": values,
        "br_values": list(br),
        "lbr": mean_lbr,
        "exploitability": mean_br,
        "lbr_per_100_hands": per_100_hands(params, mean_lbr),
        "exploitability_per_100_hands": per_100_hands(params, mean_br),
        "lbr_share_of_br": mean_lbr / mean_br if mean_br > 0 else None,
        "unit": "antes per hand, averaged over both seats",
        "unit_per_100_hands": "big bets per 100 hands",
        "nash_conv": br[0] + br[1],
        "seconds": time.perf_counter() - start,
    }


def format_report(report: dict[str, Any]) -> str:
    """The report as aligned text."""
    share = report["lbr_share_of_br"]
    return "\n".join(
        [
            f"toy_stud {describe(ToyParams(**report['params']))}",
            f"policy: {report['policy']}",
            f"LBR value, seat 0 / seat 1           {report['lbr_values'][0]:+.5f} / {report['lbr_values'][1]:+.5f}",
            f"best response, seat 0 / seat 1       {report['br_values'][0]:+.5f} / {report['br_values'][1]:+.5f}",
            f"LBR per hand (both seats)            {report['lbr']:+.5f} antes = "
            f"{report['lbr_per_100_hands']:+.2f} big bets per 100 hands",
            f"exploitability (best response)       {report['exploitability']:+.5f} antes = "
            f"{report['exploitability_per_100_hands']:+.2f} big bets per 100 hands"
            + ("" if share is None else f" (LBR finds {100 * share:.0f}%)"),
            f"NashConv (exact)                     {report['nash_conv']:.5f} antes per hand",
            f"seconds                              {report['seconds']:.1f}",
        ]
    )


def build_parser() -> argparse.ArgumentParser:
    """The command line (``dealers-choice lbr --help``)."""
    p = script_parser("lbr.py", __doc__ or "")
    add = p.add_argument
    add("game", help="the game: " + ", ".join((*GAMES, *STUD_GAMES)))
    add("policy", help="toy_stud: uniform, a .npz policy written by solve.py, or a bot spec (agents.load); "
        "the stud games: a network (pretrained:<variant>, a checkpoint), random or call")  # fmt: skip
    add("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help=f"table option, repeatable (toy_stud: {OPTION_HELP})")  # fmt: skip
    add("--samples", type=int, default=1, help="toy_stud, bots without probabilities: act() calls per information set")
    add("--seed", type=int, default=0, help="toy_stud: the bots' seed (plus each information set's index); "
        "the stud games: the deals' seed")  # fmt: skip
    add("--deals", type=int, default=200, help="stud games: duplicate deals (each played in both seat orders)")
    add("--num-players", type=int, default=2, help="stud games: seats (LBR is heads-up: 2)")
    add("--max-holdings", type=int, default=None,
        help="stud games: ordered holdings enumerated up to this many, else sampled (default 2256)")  # fmt: skip
    add("--runouts", type=int, default=None,
        help="stud games: runouts per holding, enumerated when there are at most this many (default 16)")  # fmt: skip
    add("--save-table", default=None, metavar="FILE.npz", help="also save the policy's table (read back as a policy)")
    add("--json", action="store_true", help="print the report as JSON")
    add("-q", "--no-progress", dest="progress", action="store_false", help="no progress bar")
    return p


def main(argv: list[str] | None = None) -> dict[str, Any]:
    """Run from a command line; print the report and return it."""
    args = build_parser().parse_args(argv)
    if args.game != "toy_stud":
        return _stud_main(args)
    try:
        check_game(args.game)
        params = parse_toy_options(args.option)
        settings = {"samples": args.samples, "seed": args.seed, "progress": args.progress}
        report = lbr_report(params, args.policy, save_table=args.save_table, **settings)
    except (ValueError, OSError) as err:
        print(f"{prog_name('lbr.py')}: error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    print(json.dumps(report, indent=2) if args.json else format_report(report))
    return report


def _stud_main(args: argparse.Namespace) -> dict[str, Any]:
    """``main`` for the stud games (:mod:`training.lbr_stud`)."""
    from training.approx import env_options
    from training.lbr_stud import format_report as format_stud
    from training.lbr_stud import lbr_match

    try:
        report = lbr_match(
            args.game,
            args.policy,
            deals=args.deals,
            seed=args.seed,
            options=env_options(args.option),
            **{k: v for k, v in (("max_holdings", args.max_holdings), ("runouts", args.runouts)) if v is not None},
            progress=args.progress,
            num_players=args.num_players,
        )
    except (ValueError, OSError) as err:
        print(f"{prog_name('lbr.py')}: error: {err}", file=sys.stderr)
        raise SystemExit(2) from None
    print(json.dumps(report, indent=2) if args.json else format_stud(report))
    return report


if __name__ == "__main__":
    main()
