"""Rare rules forced with stacked decks, chosen stacks and tilted play, and counted: a
path the lockstep run never reaches fails its test."""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from envs.engine.actions import DECLARE_BOTH, FOLD, RAISE
from envs.engine.cards import parse
from envs.engine.pots import _swing_wins
from envs.engine.variant import BIG
from tests.batched.lockstep import Tally, _paths, run_lockstep

NEVER_FOLD = {FOLD: 0.0}


def stacked(num_tables: int, num_players: int, button: int, hands: dict[int, str], seed: int = 0) -> np.ndarray:
    """Decks that deal ``hands[seat]`` (cards in dealt order) when nobody folds and
    nothing is burned: card ``k`` of the seat left of the button ``i``-th is dealt at
    ``k * num_players + i``; the other positions hold the other cards, shuffled."""
    rng = np.random.default_rng(seed)
    decks = []
    for _ in range(num_tables):
        deck = [-1] * 52
        for seat, text in hands.items():
            for k, card in enumerate(parse(text)):
                deck[k * num_players + (seat - button - 1) % num_players] = card
        rest = [c for c in rng.permutation(52).tolist() if c not in deck]
        decks.append([c if c >= 0 else rest.pop() for c in deck])
    return np.array(decks)


def counted(extra: Any) -> Any:
    """The harness's path counter plus ``extra(env, tally)``."""

    def paths(env: Any, tally: Tally) -> None:
        _paths(env, tally)
        extra(env, tally)

    return paths


def _rounds(env: Any) -> Counter[int]:
    """Full bets and raises per street of a finished scalar hand."""
    aggressive = Counter()
    for e in env.state.events:
        if e.kind == "action" and e.verb.name in ("BET", "RAISE", "COMPLETE"):
            aggressive[e.street] += 1
    return aggressive


def test_community_card_with_eight_players() -> None:
    tally = run_lockstep("stud", 8, 3, 80, 1, weights={**NEVER_FOLD, RAISE: 0.05})
    assert tally.paths["community card"] > 0


def test_side_pots_with_several_all_ins() -> None:
    tally = run_lockstep("stud", 4, 4, 40, 2, weights={**NEVER_FOLD, RAISE: 4.0}, ante=1, stack=(3, 9, 16, 40))
    assert tally.paths["side pots, several all-ins"] > 0


def test_odd_chips_in_tied_high_hands() -> None:
    hands = {1: "As Ks Qh Jd 9c 7s 5h", 2: "Ah Kh Qd Jc 9d 7h 5c", 0: "2c 3d 4h 6s 8c Tc Jh"}
    decks = stacked(8, 3, 0, hands)
    tally = run_lockstep("stud", 3, 8, 30, 3, decks=decks, buttons=[0] * 8, weights=NEVER_FOLD, ante=1)
    assert tally.paths["odd chips"] > 0


def test_odd_chips_high_low() -> None:
    tally = run_lockstep("stud_hilo", 3, 4, 60, 4, weights=NEVER_FOLD, ante=1)
    assert tally.paths["odd chips"] > 0


def test_opener_ties_without_bring_in() -> None:
    """No bring-in: the best up card by rank opens; a tie goes to the first seat from the button."""

    def ties(env: Any, tally: Tally) -> None:
        st = env.state
        firsts = [next(c for c, u in zip(st.cards[s], st.up[s], strict=True) if u) >> 2 for s in range(st.n)]
        if firsts.count(max(firsts)) > 1:
            tally.paths["opener tie"] += 1

    hands = {1: "2c 3c As", 2: "2d 3d Ah", 0: "4c 4d 7h"}
    decks = stacked(4, 3, 0, hands)
    tally = run_lockstep(
        "stud", 3, 4, 45, 5, decks=decks, buttons=[0] * 4, paths=counted(ties), weights=NEVER_FOLD, bring_in=None
    )
    assert tally.paths["opener tie"] > 0


def test_bring_in_rank_tie_broken_by_suit() -> None:
    def ties(env: Any, tally: Tally) -> None:
        st = env.state
        firsts = [next(c for c, u in zip(st.cards[s], st.up[s], strict=True) if u) >> 2 for s in range(st.n)]
        if firsts.count(min(firsts)) > 1:
            tally.paths["bring-in rank tie"] += 1

    hands = {1: "Ac Kc 2h", 2: "Ad Kd 2s", 0: "4c 4d 9h"}
    decks = stacked(4, 3, 2, hands)
    tally = run_lockstep("stud", 3, 4, 45, 6, decks=decks, buttons=[2] * 4, paths=counted(ties), weights=NEVER_FOLD)
    assert tally.paths["bring-in rank tie"] > 0


@pytest.mark.parametrize("cap_heads_up", [True, False], ids=["capped", "uncapped"])
def test_caps_heads_up(cap_heads_up: bool) -> None:
    def caps(env: Any, tally: Tally) -> None:
        most = max(_rounds(env).values(), default=0)
        if most >= 2:
            tally.paths["cap reached" if most == 2 else "past the cap"] += 1

    tally = run_lockstep(
        "stud",
        2,
        4,
        40,
        7,
        paths=counted(caps),
        weights={**NEVER_FOLD, RAISE: 6.0},
        raise_cap=2,
        cap_heads_up=cap_heads_up,
        stack=None,
    )
    if cap_heads_up:
        assert tally.paths["cap reached"] > 0 and tally.paths["past the cap"] == 0
    else:
        assert tally.paths["past the cap"] > 0


def test_open_pair_big_bet() -> None:
    def pairs(env: Any, tally: Tally) -> None:
        st = env.state
        fourth = [e for e in st.events if e.kind == "action" and e.street == 1 and e.verb.name in ("BET", "RAISE")]
        if fourth and fourth[0].amount == st.game.options.big_bet:
            tally.paths["open pair big bet"] += 1

    hands = {1: "2c 3c 9s 9h", 0: "4d 5d Kh Qs"}
    decks = stacked(6, 2, 0, hands)
    tally = run_lockstep(
        "stud",
        2,
        6,
        30,
        8,
        decks=decks,
        buttons=[0] * 6,
        paths=counted(pairs),
        weights={**NEVER_FOLD, RAISE: 3.0},
        open_pair_big_bet=True,
        small_bet=2,
        big_bet=4,
    )
    assert tally.paths["open pair big bet"] > 0
    assert BIG == "big"


@pytest.mark.parametrize("swing_rule", ["win_or_tie", "outright"])
def test_declare_each_way_and_the_swing_rule(swing_rule: str) -> None:
    def swing(env: Any, tally: Tally) -> None:
        st = env.state
        if len(st.live()) < 2:
            return
        from envs.engine.hands import high_value, low_threshold, low_value

        live = st.live()
        high = [high_value(st.cards[s] + st.community) if s in live else 0 for s in range(st.n)]
        low = [low_value(st.cards[s] + st.community, low_threshold(8)) if s in live else 0 for s in range(st.n)]
        cands = [
            [s for s in live if high[s] and st.declared[s] in (1, 2)],
            [s for s in live if low[s] and st.declared[s] in (0, 2)],
        ]
        for s in live:
            if st.declared[s] == 2:
                won = _swing_wins(s, cands, [high, low], swing_rule)
                tally.paths["swing won" if won else "swing failed"] += 1

    both = {**NEVER_FOLD, DECLARE_BOTH: 3.0}
    tally = run_lockstep("stud_hilo_declare", 3, 4, 60, 9, paths=counted(swing), weights=both, swing_rule=swing_rule)
    # a wheel that is also a straight against a lone pair: both ways won
    decks = stacked(4, 2, 0, {1: "Ac 2d 3h 4s 5c Kd Kh", 0: "9c 9d Ts Jh Kc 6s 2h"})
    more = run_lockstep(
        "stud_hilo_declare",
        2,
        4,
        30,
        9,
        decks=decks,
        buttons=[0] * 4,
        paths=counted(swing),
        weights=both,
        swing_rule=swing_rule,
    )
    tally.paths.update(more.paths)
    for path in ("declare low", "declare high", "declare both", "swing failed", "swing won"):
        assert tally.paths[path] > 0, path


def test_cowpie_split_legality_rules() -> None:
    """Forfeit: every split is offered; an illegal one (no face-down card in a hand, or
    the two-card hand ranking higher) wins nothing; each reason is reached."""
    from envs.engine.actions import SPLIT_PAIRS
    from envs.engine.hands import evaluate_high
    from envs.engine.hands.split import five_outranks_two

    def reasons(env: Any, tally: Tally) -> None:
        st = env.state
        for e in st.events:
            if e.kind != "split":
                continue
            cards, up = st.cards[e.seat], st.up[e.seat]
            i, j = SPLIT_PAIRS[e.action - 7]
            two, five = [i, j], [k for k in range(7) if k not in (i, j)]
            if all(up[k] for k in two) or all(up[k] for k in five):
                tally.paths["split: a hand without a down card"] += 1
            elif not five_outranks_two([cards[k] for k in five], [cards[k] for k in two]):
                paired = cards[i] >> 2 == cards[j] >> 2
                tally.paths[
                    "split: two-card pair ranks higher" if paired else "split: two-card high cards rank higher"
                ] += 1
            else:
                tally.paths["split: legal"] += 1
                assert evaluate_high([cards[k] for k in five]) > 0

    hands = {1: "Ac Ad 2h 3s 5d 8c 9d", 0: "Kc Qd 2c 4s 6d 7c Jh"}
    decks = stacked(4, 2, 0, hands)
    tally = run_lockstep(
        "cowpie",
        2,
        4,
        45,
        10,
        decks=decks,
        buttons=[0] * 4,
        paths=counted(reasons),
        weights={FOLD: 0.0, RAISE: 0.2, 7: 8.0},  # split_0_1: the pair of aces as the two-card hand
        illegal_split="forfeit",
    )
    for path in (
        "split: a hand without a down card",
        "split: two-card pair ranks higher",
        "split: two-card high cards rank higher",
        "split: legal",
    ):
        assert tally.paths[path] > 0, path
    assert tally.paths["illegal split"] > 0


def test_cowpie_bet_after_split_and_masked_splits() -> None:
    tally = run_lockstep("cowpie", 3, 4, 60, 11, weights={FOLD: 0.05}, bet_after_split=True, illegal_split="mask")
    assert tally.paths["showdown"] > 0


def test_five_card_stud_spare_burns_with_ten_players() -> None:
    def burns(env: Any, tally: Tally) -> None:
        count = sum(1 for e in env.state.events if e.kind == "burn")
        if len(env.state.live()) == 10 and count < 4:
            tally.paths["burn spared"] += 1

    tally = run_lockstep(
        "five_card_stud", 10, 4, 60, 12, paths=counted(burns), weights={**NEVER_FOLD, RAISE: 0.05}, burn_cards=True
    )
    assert tally.paths["burn"] > 0 and tally.paths["burn spared"] > 0


@pytest.mark.parametrize(("name", "players"), [("stud", 7), ("stud", 8), ("razz", 8), ("stud_hilo_declare", 7)])
def test_burned_cards_reused_at_seventh_street(name: str, players: int) -> None:
    """A short stub at seventh street takes the burned cards back (in burn order); still
    short, a community card. Both branches reached with seven and eight players."""
    tally = run_lockstep(name, players, 6, 150, 13, weights={FOLD: 0.01, RAISE: 0.05}, burn_cards=True)
    assert tally.paths["burned cards reused and dealt"] + tally.paths["burned cards reused, then a community card"] > 0
    if players == 8:
        assert tally.paths["burned cards reused, then a community card"] > 0
    else:
        assert tally.paths["burned cards reused and dealt"] > 0


def test_reused_burned_cards_come_in_burn_order() -> None:
    """The scalar rule the batched engine follows: after the stub's own cards, the first
    card burned is dealt first (eight players in: it is the community card; seven: the
    stub's last five cards, then the third and fourth streets' burns)."""
    import envs

    deck = np.random.default_rng(14).permutation(52).tolist()
    env = envs.make_raw("stud", 8, burn_cards=True)
    env.reset(options={"deck": deck, "button": 0})
    while not all(env.terminations.values()):
        env.step(2 if env.observe(env.agent_selection)["action_mask"][2] else 1)  # bring in, then call
    assert env.state.community == [deck[0]]  # the third street's burn, the top card of the deck
    env = envs.make_raw("stud", 7, burn_cards=True)
    env.reset(options={"deck": deck, "button": 6})  # seat 0 is dealt first
    while not all(env.terminations.values()):
        env.step(2 if env.observe(env.agent_selection)["action_mask"][2] else 1)
    # third street: burn deck[0], 21 cards; fourth to sixth: a burn and 7 cards each (burns at 22, 30, 38)
    # seventh: stub 46..51 less the burn of deck[46]: deck[47..51] to seats 0..4, then deck[0], deck[22]
    seventh = [env.state.cards[seat][6] for seat in range(7)]
    assert seventh == [*deck[47:52], deck[0], deck[22]]


def test_burned_cards_reused_on_the_sync_free_path() -> None:
    """The GPU path (no host sync, every rule computed for every table) run on the CPU
    reuses burned cards the same way."""
    from envs.batched import make

    batch = make("stud", 3, 8, sync_free=True, burn_cards=True)
    tally = run_lockstep("stud", 8, 3, 45, 15, batch=batch, weights={**NEVER_FOLD, RAISE: 0.05}, burn_cards=True)
    assert tally.paths["burned cards reused, then a community card"] > 0
