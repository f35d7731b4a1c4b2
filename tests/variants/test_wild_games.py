"""Scripted hands with wild cards: one test (or more) per rule of docs/rules.md section 11.

Stud seats: with the button on seat 0, cards go to seats 1, 2, ..., 0; a hand string
lists a seat's cards as dealt (down, down, up, up, up, up, down).
"""

from __future__ import annotations

import pytest

import envs
from envs.engine.actions import BRING_IN, CHECK_CALL, DECLARE_BOTH, DECLARE_HIGH, FOLD, RAISE, SPLIT_BASE
from envs.engine.cards import JOKER, parse
from envs.engine.hands.split import SPLITS
from envs.engine.history import HandRecord, hand_history
from envs.variants import get_variant, make_game, replay
from envs.variants.stud.rules import StudOptions
from tests.variants.cowboy_script import HIGH, LOW, STAY, deal, net, play
from tests.variants.scripted import act, call_down, stud_deck

WILD_GAMES = ("stud", "razz", "stud_hilo", "stud_hilo_declare", "five_card_stud", "cowpie", "cowboy", "cowgirl")


def new_hand(name: str, n: int, hands: dict[int, str], last=None, **options):  # type: ignore[no-untyped-def]
    game = make_game(name, n, **options)
    return game.new_state(0, button=0, deck=stud_deck(n, 0, hands, last))


# ------------------------------------------------------------- options and decks
@pytest.mark.parametrize("name", WILD_GAMES)
def test_the_joker_and_the_bug_deal_53_cards_deuces_52(name: str) -> None:
    n = get_variant(name).seats[0] + 1
    assert len(make_game(name, n, wild="joker").deck) == 53
    assert JOKER in make_game(name, n, wild="bug").deck
    assert len(make_game(name, n, wild="deuces").deck) == 52
    assert len(make_game(name, n).deck) == 52


@pytest.mark.parametrize(
    ("name", "options", "message"),
    [
        ("toy_stud", {"wild": "joker"}, "not allowed for toy_stud: wild cards are a house rule of the stud family"),
        ("chowaha", {"wild": "deuces"}, "not allowed for chowaha: wild cards are a house rule"),
        ("chowaha", {"natural_beats_wild": True}, "not allowed for chowaha"),
        ("stud", {"wild": "jokers"}, "wild='jokers' is not allowed: expected one of 'none', 'joker', 'bug', 'deuces'"),
        ("cowpie", {"wild": True}, "wild=True is not allowed"),
        ("cowboy", {"natural_beats_wild": True}, "natural_beats_wild=True is not allowed with wild='none'"),
        (
            "razz",
            {"wild": "bug", "natural_beats_wild": 1},
            "natural_beats_wild=1 is not allowed: expected True or False",
        ),
    ],
)
def test_bad_wild_options_are_refused(name: str, options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_game(name, 2 if name not in ("cowboy",) else 3, **options)
    with pytest.raises(ValueError, match=message):
        envs.make_raw(name, 2 if name not in ("cowboy",) else 3, **options)


def test_a_stacked_joker_without_the_joker_is_refused_and_nothing_changes() -> None:
    env = envs.make_raw("stud", 2)
    env.reset(seed=3)
    state, obs = env.state, env.observe("player_0")["observation"]
    with pytest.raises(ValueError, match=r"the joker 'Jk', but this game has no joker: .*wild='joker' or wild='bug'"):
        env.reset(options={"deck": ["As", "Jk"]})
    assert env.state is state and (env.observe("player_0")["observation"] == obs).all()
    with pytest.raises(ValueError, match="the joker 'Jk', but this game has no joker"):
        make_game("stud", 2, wild="deuces").new_state(0, deck="Jk As")


def test_wild_none_keeps_the_plain_options_object() -> None:
    """wild="none" builds exactly the options a game without the option had."""
    plain, explicit = make_game("stud", 3).options, make_game("stud", 3, wild="none").options
    assert type(explicit) is StudOptions and explicit == plain
    assert not hasattr(explicit, "wild")


# ------------------------------------------- the community card counts the deck in use
def _eight_players_one_folds_on_fourth(wild: str):  # type: ignore[no-untyped-def]
    st = make_game("stud", 8, wild=wild, bring_in=None).new_state(5)
    folded = False
    while not st.is_over:
        legal = st.legal_actions()
        if st.street == 1 and not folded and RAISE in legal and CHECK_CALL in legal and st.current_bet == 0:
            st.apply(RAISE)  # the opener bets fourth street, the next player folds
        elif st.street == 1 and not folded and st.current_bet > 0 and FOLD in legal:
            st.apply(FOLD)
            folded = True
        else:
            st.apply(BRING_IN if BRING_IN in legal else CHECK_CALL)
    return st


def test_the_community_card_rule_counts_the_53_cards_of_a_joker_deck() -> None:
    # 24 + 8 + 7 + 7 cards dealt before seventh street: a 52-card stub holds 6 for 7
    # players (one community card), the joker deck 7 (everyone gets a seventh card)
    assert len(_eight_players_one_folds_on_fourth("deuces").community) == 1
    st = _eight_players_one_folds_on_fourth("joker")
    assert st.community == [] and all(len(st.cards[s]) == 7 for s in st.live())


# ------------------------------------------------------------------ openers
def test_a_wild_up_card_counts_as_an_ace_and_never_brings_in() -> None:
    last = {0: 0, 1: 0, 2: 0}
    hands = {1: "Ah Kh 2c", 2: "Ad Kd 3d", 0: "As Kc Th"}
    assert new_hand("stud", 3, hands, last=last).current_seat == 1  # no wild cards: the 2c
    assert new_hand("stud", 3, hands, last=last, wild="deuces").current_seat == 2  # the wild 2c is an ace
    duel = {1: "Ah Kh Ac", 0: "Ad Kd Jk"}
    assert new_hand("stud", 2, duel, last={0: 0, 1: 0}, wild="joker").current_seat == 1  # Ac, not the joker


def test_in_razz_a_wild_up_card_is_the_lowest_and_never_brings_in() -> None:
    last = {0: 0, 1: 0}
    assert new_hand("razz", 2, {1: "Ah Kh Ac", 0: "Ad Kd Jk"}, last=last, wild="joker").current_seat == 1
    hands = {1: "Ah Kh Ac", 0: "Ad Kd 2c"}
    assert new_hand("razz", 2, hands, last=last).current_seat == 0  # the 2c is higher than the ace
    assert new_hand("razz", 2, hands, last=last, wild="deuces").current_seat == 1  # wild: the ace brings in


def test_when_every_up_card_is_wild_the_lowest_suit_brings_in() -> None:
    hands = {1: "Ah Kh 2d", 0: "Ad Kd 2c"}
    assert new_hand("stud", 2, hands, last={0: 0, 1: 0}, wild="deuces").current_seat == 0
    assert new_hand("razz", 2, hands, last={0: 0, 1: 0}, wild="deuces").current_seat == 1


def test_the_best_showing_hand_counts_a_wild_up_card_at_its_best_value() -> None:
    # fourth street: seat 1 shows Kc Jk (kings with the joker), seat 0 Qs Qd
    hands = {1: "2h 3h Kc Jk 5d 6d 7d", 0: "4c 5c Qs Qd 8h 9h Th"}
    st = new_hand("stud", 2, hands, wild="joker")
    act(st, (0, BRING_IN), (1, CHECK_CALL))  # Qs is lower than the king: seat 0 brings in
    assert st.street == 1 and st.current_seat == 1
    deuces = {1: "3s 4s Kc 2c 5d 6d 7d", 0: "4c 5c Qs Qd 8h 9h Th"}
    st = new_hand("stud", 2, deuces, wild="deuces")
    act(st, (0, BRING_IN), (1, CHECK_CALL))
    assert st.current_seat == 1  # K and a wild deuce: a pair of kings beats the queens
    st = new_hand("stud", 2, deuces)
    act(st, (0, BRING_IN), (1, CHECK_CALL))
    assert st.current_seat == 0  # without wild cards K-2 is below the queens


def test_in_razz_the_best_showing_wild_card_is_the_lowest_rank_missing() -> None:
    # fourth street: seat 1 shows 3c 2c (wild: 3-A), seat 0 shows 3d Ah (3-A): a tie,
    # so the first seat from the button acts; without wild cards 3-A is lower than 3-2
    hands = {1: "Ks Qs 3c 2c 5d 6d 7d", 0: "Kd Qd 3d Ah 8h 9h Th"}
    st = new_hand("razz", 2, hands, wild="deuces")
    act(st, (0, BRING_IN), (1, CHECK_CALL))  # razz: the 3d (above the 3c) brings in
    assert st.current_seat == 1
    st = new_hand("razz", 2, hands)
    act(st, (0, BRING_IN), (1, CHECK_CALL))
    assert st.current_seat == 0


def test_without_a_bring_in_a_wild_up_card_ties_an_ace() -> None:
    hands = {1: "2h 3h As", 0: "4c 5c Jk"}
    st = new_hand("stud", 2, hands, last={0: 0, 1: 0}, wild="joker", bring_in=None)
    assert st.current_seat == 1  # the joker is an ace: equal, first seat from the button


# --------------------------------------------------------------------- odd chips
KING_STRAIGHT_JOKER = "Jk Qh Jd Tc 9c 4d 3h"
SEVENS = "7c 7d 8h 6s 4c 3c 2h"


def _checked_down(name: str, hands: dict[int, str], **options: object):  # type: ignore[no-untyped-def]
    st = new_hand(name, 3, hands, **options)
    call_down(st)  # the bring-in, two calls, checks: a pot of 3 chips
    assert st.is_over
    return st


def test_the_joker_is_an_ace_for_odd_chips_so_it_beats_a_king() -> None:
    hands = {1: KING_STRAIGHT_JOKER, 2: "Ks Qc Jh Ts 9d 5c 2d", 0: SEVENS}
    st = _checked_down("stud", hands, wild="joker")
    assert st.payoffs() == [-1, 1, 0]  # tied king-high straights; the joker outranks K♠


def test_the_jokers_suit_is_below_clubs_for_odd_chips() -> None:
    hands = {1: "Jk Kh Qd Jc Tc 4d 3h", 2: "Ac Ks Qh Jh Ts 5c 2d", 0: SEVENS}
    st = _checked_down("stud", hands, wild="joker")
    assert st.payoffs() == [-1, 0, 1]  # tied ace-high straights; the A♣ outranks the joker


def test_a_wild_deuce_keeps_its_suit_for_odd_chips() -> None:
    # tied 6-5-4-3-A lows (seat 1's wild 2c is the ace); the low odd chip goes to the
    # lowest card, aces low: seat 2's A♦ is below the deuce of clubs
    hands = {1: "2c 3h 4h 5h 6h Kc Kd", 2: "Ad 3s 4s 5s 6s Qc Qd", 0: "7c 8c 9c Tc Jc 8d 9d"}
    st = _checked_down("razz", hands, wild="deuces")
    assert st.payoffs() == [-1, 0, 1]


def test_natural_beats_wild_breaks_the_tie_for_the_natural_hand() -> None:
    hands = {1: KING_STRAIGHT_JOKER, 2: "Ks Qc Jh Ts 9d 5c 2d", 0: SEVENS}
    st = _checked_down("stud", hands, wild="joker", natural_beats_wild=True)
    assert st.payoffs() == [-1, -1, 2]


# --------------------------------------------------------------------- showdowns
def test_five_of_a_kind_beats_a_straight_flush() -> None:
    st = new_hand("stud", 2, {1: "Jk Ah Ac Ad As 2c 3d", 0: "Ks Qs Js Ts 9s 4h 5h"}, wild="joker")
    call_down(st)
    assert st.payoffs() == [-1, 1]
    assert "five of a kind, aces" in hand_history(st)


def test_razz_with_the_joker_as_the_lowest_rank_missing() -> None:
    st = new_hand("razz", 2, {1: "Jk 2c 3d 4h 5s Kc Kd", 0: "Ac 2d 3h 4s 6c Qh Qd"}, wild="joker")
    call_down(st)
    assert st.payoffs() == [-1, 1]  # 5-4-3-2-A (the joker is the ace) beats 6-4-3-2-A


def test_hi_lo_the_joker_plays_differently_each_way() -> None:
    # seat 1: the joker is the 8 of an 8-high straight for high and the ace of a wheel for low
    hands = {1: "Jk 2h 3d 4c 5c 6d 7h", 0: "Ah Ad Ac Ks Qd 9c Th"}
    st = new_hand("stud_hilo", 2, hands, wild="joker")
    call_down(st)
    assert st.payoffs() == [-1, 1]
    text = hand_history(st)
    assert "high half of the pot with eight-high straight" in text and "low half of the pot with 5-4-3-2-A" in text


@pytest.mark.parametrize(
    ("natural_beats_wild", "payoffs"),
    [(False, [-1, 1]), (True, [2, -2])],
    ids=["tie-swing-wins", "natural-wins-swing-fails"],
)
def test_declare_swing_with_a_wild_straight(natural_beats_wild: bool, payoffs: list[int]) -> None:
    # seat 1 declares both with 8-high straight (the joker) and a wheel; seat 0 declares
    # high with a natural 8-high straight. Tied high: the swing wins or ties both ways
    # (high half split, low half to seat 1). With natural_beats_wild the natural straight
    # wins high, the swing fails, and with no other low the high side takes the pot.
    hands = {1: "Jk 2h 3d 4c 5c 6d 7h", 0: "8d 7c 6h 5d 4h Kc Kd"}
    options = {"wild": "joker", "ante": 1, "natural_beats_wild": natural_beats_wild}
    st = new_hand("stud_hilo_declare", 2, hands, **options)
    call_down(st)
    act(st, (1, DECLARE_BOTH), (0, DECLARE_HIGH))
    assert st.payoffs() == payoffs


def _split_action(two: tuple[int, int]) -> int:
    return SPLIT_BASE + SPLITS.index(two)


def test_cowpie_splits_at_the_wild_values() -> None:
    # seat 1: Jk 9d Kh Kc 7s 4d 2c; seat 0: As 3d Ah 8c 6h 5s Qd
    st = new_hand("cowpie", 2, {1: "Jk 9d Kh Kc 7s 4d 2c", 0: "As 3d Ah 8c 6h 5s Qd"}, wild="joker")
    call_down(st)
    assert st.current_seat == 1
    legal = st.legal_actions()
    assert _split_action((0, 1)) in legal  # K-K-7-4-2 / Jk-9d (a pair of nines)
    assert _split_action((0, 2)) not in legal  # 9-K-7-4-2 / Jk-Kh: a pair of kings outranks king-high
    st.apply(_split_action((0, 1)))
    st.apply(_split_action((1, 6)))  # As Ah 8c 6h 5s / 3d Qd
    call_down(st)
    assert st.is_over and st.payoffs() == [0, 0]  # aces take the five-card half, the nines the two-card half
    assert "two-card half of the pot with pair of nines (Jk 9d)" in hand_history(st)


def test_the_dummy_with_the_joker_beats_the_high_winner_who_pays() -> None:
    # Cowpattie: seat 0 folds; the dummy Qc Qd Jk 8s 3h (three queens) beats seat 1's
    # kings: seat 1's high half stays in the pot and seat 1 matches it; seat 2's low stands
    hands = {1: "Kc Kd 9h 7s 2d", 2: "7c 5d 4h 3s 2h", 3: "9d 8c 6h 4c 3c", 0: "Jc Jd Th 8d 6s"}
    st = deal("cowpattie", hands, rest="Qc Qd Jk 8s 3d", wild="joker")
    play(st, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD)])
    play(st, [(1, HIGH), (2, LOW), (3, LOW)])
    assert st.family.deal == 2
    assert net(st) == [-2, -5, 1, -5]
    assert "three of a kind, queens" in hand_history(st)
    plain = deal("cowpattie", hands, rest="Qc Qd 9s 8s 3d")
    play(plain, [(1, STAY), (2, STAY), (3, STAY), (0, FOLD)])
    play(plain, [(1, HIGH), (2, LOW), (3, LOW)])
    assert net(plain) == [-2, 1, 1, -5]  # a natural pair of queens beats nobody


# -------------------------------------------------------------- records, histories
def test_histories_and_records_name_the_joker_jk() -> None:
    st = new_hand("stud", 2, {1: "Jk Ah Ac Ad As 2c 3d", 0: "Ks Qs Js Ts 9s 4h 5h"}, wild="joker")
    call_down(st)
    record = HandRecord.of(st)
    assert "Jk" in record.dealt["player_1"] and "Jk" in hand_history(st)
    again = replay(HandRecord.from_json(record.to_json()))
    assert again.payoffs() == st.payoffs() and hand_history(again) == hand_history(st)
    assert "wild='joker'" in hand_history(st).splitlines()[1]


# -------------------------------------------------------------------- PHH, render
def test_phh_export_refuses_a_wild_card_hand() -> None:
    from envs.phh import PHHError, to_phh

    st = new_hand("stud", 2, {1: "Jk Ah Ac Ad As 2c 3d", 0: "Ks Qs Js Ts 9s 4h 5h"}, wild="joker")
    call_down(st)
    with pytest.raises(PHHError, match="wild='joker': PHH has no wild cards"):
        to_phh(HandRecord.of(st))
    deuces = make_game("stud", 2, wild="deuces").new_state(1)
    call_down(deuces)
    with pytest.raises(PHHError, match="wild='deuces'"):
        to_phh(HandRecord.of(deuces))


def test_the_renderer_draws_the_joker_legibly() -> None:
    import numpy as np

    from envs.render import JOKER_COLOR, card_image, table_image

    joker = np.asarray(card_image(JOKER))[..., :3]
    assert (np.abs(joker.astype(int) - JOKER_COLOR).sum(axis=-1) < 60).sum() > 20  # its purple ink
    assert not np.array_equal(joker, np.asarray(card_image(51))[..., :3])
    st = new_hand("stud", 2, {1: "2h 3h Jk", 0: "4c 5c As"}, last={0: 0, 1: 0}, wild="joker")
    assert table_image(st, None).shape[-1] == 3


# ------------------------------------------------- above the engine: gym, mixed, bots
def test_the_gymnasium_ids_take_the_wild_options() -> None:
    import gymnasium

    import envs.gym_registry  # noqa: F401  (registers the ids)

    env = gymnasium.make("DealersChoice/Stud-v0", wild="bug", natural_beats_wild=True, opponents="random")
    obs, _ = env.reset(seed=0)
    assert env.unwrapped.aec.game.options.wild == "bug" and len(env.unwrapped.aec.game.deck) == 53
    plain = gymnasium.make("DealersChoice/Stud-v0", opponents="random")
    plain_obs, _ = plain.reset(seed=0)
    assert obs["action_mask"].shape == plain_obs["action_mask"].shape  # the action layout does not change
    with pytest.raises(ValueError, match="not allowed for toy_stud"):
        gymnasium.make("DealersChoice/ToyStud-v0", wild="joker")


def test_the_wild_cards_piece_marks_the_joker_and_is_documented() -> None:
    env = envs.make_raw("stud", 2, wild="joker")
    env.reset(options={"deck": stud_deck(2, 0, {1: "Jk 3h As", 0: "4c 5c Kd"}, {0: 0, 1: 0}), "button": 0})
    piece = next(p for p in env.tracker.pieces if p.name == "wild_cards")
    mine = env.observe("player_1")["observation"][piece.offset : piece.offset + piece.size]
    theirs = env.observe("player_0")["observation"][piece.offset : piece.offset + piece.size]
    assert mine[0] == 1 and mine[4] == 1  # the joker rule; own slot 0 holds a wild card
    assert theirs[4] == 0 and theirs[piece.up_at] == 0  # the joker is down: seat 0 cannot know it
    assert "wild_cards" not in [p.name for p in envs.make_raw("stud", 2).tracker.pieces]
    assert "joker" in piece.doc


def test_dealers_choice_deals_a_wild_card_game_among_its_listed_games() -> None:
    options = {"games": ("stud", "razz"), "choice": "rotate", "hands_per_game": 1}
    table = make_game("dealers_choice", 3, **options, game_options={"stud": {"wild": "joker"}})
    assert JOKER in table.deck
    st = table.new_state(2)
    assert st.playing.name == "stud" and st.playing.options.wild == "joker"
    call_down(st)
    razz = table.new_state(2, hand=1)
    assert razz.playing.name == "razz" and JOKER in razz.piles["set aside"]  # razz plays without it
    assert JOKER not in make_game("dealers_choice", 3, **options).deck


@pytest.mark.parametrize("name", ["cowpie", "cowgirl"])
def test_the_heuristic_plays_wild_cowpie_and_cowboy_games(name: str) -> None:
    from agents.heuristic import HeuristicAgent

    env = envs.make_raw(name, 3, wild="joker", natural_beats_wild=True)
    env.reset(seed=2)
    bot = HeuristicAgent(seed=0)
    while not env.state.is_over:
        agent = env.agent_selection
        env.step(bot.act(env.observe(agent), env.public_view(agent)))
    assert sum(env.state.payoffs()) == 0


def test_the_heuristic_values_wild_cards() -> None:
    from agents.heuristic import HeuristicAgent
    from agents.heuristic.plans import rules_of
    from envs.engine.wild_options import wild_rules
    from envs.variants.cowpie import rank_splits

    env = envs.make_raw("stud_hilo_declare", 2, wild="joker")
    env.reset(seed=4)
    bot = HeuristicAgent(seed=0)
    while not env.state.is_over:
        agent = env.agent_selection
        view = env.public_view(agent)
        assert JOKER in rules_of(view).deck  # an unseen joker can be dealt to the others
        env.step(bot.act(env.observe(agent), view))
    rules = wild_rules(make_game("cowpie", 2, wild="joker").options)
    down = [True, True, False, False, False, False, True]
    best, _ = rank_splits(parse("Jk 9d Kh Kc 7s 4d 2c"), down, rules=rules)[0]
    assert best == SPLIT_BASE + SPLITS.index((0, 1))  # K-K-7-4-2 and a pair of nines made with the joker
