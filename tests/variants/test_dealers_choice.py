"""Dealer's choice in the engine (docs/rules.md section 9): the choice, the rotation, the
draw, the stakes table, per-game options, the games a table deals, and every error."""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine.actions import BASE_NAMES, BRING_IN, CHECK_CALL, FOLD, RAISE, STAY
from envs.engine.errors import IllegalActionError
from envs.engine.events import EventKind, Verb
from envs.engine.game import Game
from envs.engine.history import HandRecord, hand_history
from envs.engine.state import State
from envs.variants import VARIANTS, get_variant, make_game, replay
from envs.variants.mixed import Stakes
from envs.variants.mixed.pieces import choose_step
from tests.variants.scripted import call_down

SEVEN_HANDED = ["stud", "razz", "stud_hilo", "stud_hilo_declare", "cowpie", "chowaha", "five_card_stud"]


def table(n: int = 2, **options: object) -> Game:
    return make_game("dealers_choice", n, **options)


def games_of(game: Game) -> dict[str, Game]:
    return {g.name: g for g in choose_step(game).games}


def choose(state: State, name: str) -> None:
    """The button names ``name``."""
    state.apply(state.game.action_names.index(f"choose_{name}"))


# ------------------------------------------------------------------ the choice
def test_the_buttons_first_decision_names_the_game_and_everyone_sees_it() -> None:
    game = table(3)
    st = game.new_state(5, button=2)
    assert st.current_seat == 2  # the button, before any card is dealt
    assert not any(st.cards) and st.pot() == 0 and st.playing is game
    names = [game.action_names[a] for a in st.legal_actions()]
    assert names == [f"choose_{g}" for g in SEVEN_HANDED]
    assert st.legal_labels() == names
    choose(st, "razz")
    assert st.playing.name == "razz" and st.playing is games_of(game)["razz"]
    chosen = [e for e in st.events if e.kind == EventKind.CHOOSE]
    assert len(chosen) == 1 and not chosen[0].secret  # public
    assert (chosen[0].seat, chosen[0].text, chosen[0].verb) == (2, "Razz", Verb.CHOOSE)
    assert [len(c) for c in st.cards] == [3, 3, 3]  # razz's third street, dealt at once
    assert BRING_IN in st.legal_actions()  # razz's bring-in round follows the choice
    for seat in range(3):
        assert "player_2 (dealer) chooses Razz" in hand_history(st, seat)


def test_the_choice_is_checked_like_any_action() -> None:
    st = table(2).new_state(0)
    before = list(st.events)
    for bad in (FOLD, CHECK_CALL, STAY, len(st.game.action_names), -1, True, 61.0):
        with pytest.raises(IllegalActionError):
            st.apply(bad)  # type: ignore[arg-type]
    assert st.events == before and st.playing is st.game
    choose(st, "stud")
    choices = [a for a, name in enumerate(st.game.action_names) if name.startswith("choose_")]
    assert not set(choices) & set(st.legal_actions())  # once named, no more choices
    with pytest.raises(IllegalActionError):
        st.apply(choices[0])


def test_an_index_means_the_same_in_every_game() -> None:
    """The table's actions: every base action, sized bets, then one choice per game;
    each game's own actions are a prefix, so no game's action is renumbered."""
    game = table(2, game_options={"chowaha": {"betting": "no_limit", "bet_sizes": (0.5, 1.0)}})
    names = game.action_names
    assert names[: len(BASE_NAMES)] == BASE_NAMES
    assert names[len(BASE_NAMES) : len(BASE_NAMES) + 3] == ("bet_0.5_pot", "bet_1_pot", "all_in")
    assert names[len(BASE_NAMES) + 3 :] == tuple(f"choose_{g}" for g in SEVEN_HANDED)
    for own in games_of(game).values():
        assert names[: own.num_actions] == own.action_names


def test_games_with_different_bet_sizes_cannot_share_the_layout() -> None:
    """Only one listed game has sized bets today; the check still names the problem."""
    from envs.variants.mixed.rules import action_layout

    a = make_game("chowaha", 2, betting="no_limit", bet_sizes=(0.5,))
    b = make_game("chowaha", 2, betting="no_limit", bet_sizes=(1.0,))
    with pytest.raises(ValueError, match="games with different bet sizes cannot share one action layout"):
        action_layout([a, b])


# ------------------------------------------------------------- rotate, random
@pytest.mark.parametrize(("hands_per_game", "per_game"), [(1, 1), (3, 3), (None, 4)])
def test_rotate_deals_the_list_in_order_hands_per_game_each(hands_per_game: int | None, per_game: int) -> None:
    games = ("razz", "chowaha", "stud")
    options = {"choice": "rotate", "games": games}
    if hands_per_game is not None:
        options["hands_per_game"] = hands_per_game
    game = table(4, **options)  # default: one orbit, four hands each
    dealt = [game.new_state(7, hand=h).playing.name for h in range(3 * per_game * 2)]
    assert dealt == [g for _ in range(2) for g in games for _ in range(per_game)]
    st = game.new_state(7, hand=per_game)
    assert st.current_seat is not None and st.playing.name == "chowaha"  # no decision: the game is dealt
    event = next(e for e in st.events if e.kind == EventKind.CHOOSE)
    assert event.verb == Verb.NONE and event.seat == st.button and "Game: Chowaha" in hand_history(st)


def test_random_draws_every_game_from_the_seeded_generator() -> None:
    game = table(2, choice="random")
    dealt = [game.new_state(seed).playing.name for seed in range(400)]
    assert dealt == [game.new_state(seed).playing.name for seed in range(400)]  # seeded
    counts = {name: dealt.count(name) for name in SEVEN_HANDED}
    assert all(30 <= c <= 90 for c in counts.values()), counts  # about 57 each
    assert len({game.new_state(3, hand=h).playing.name for h in range(20)}) == 1  # not the hand number


def test_hand_numbers_must_be_ints() -> None:
    game = table(2, choice="rotate")
    for bad in (-1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="hand="):
            game.new_state(0, hand=bad)  # type: ignore[arg-type]


# --------------------------------------------------------------------- stakes
def test_the_stakes_table_sets_every_games_betting_options() -> None:
    stakes = {"ante": 1, "small_bet": 6, "big_bet": 12}
    games = ("stud", "razz", "stud_hilo_declare", "five_card_stud", "cowpie", "chowaha", "cowboy", "cowpattie")
    built = games_of(table(3, games=games, stakes=stakes))
    for name in ("stud", "razz", "stud_hilo_declare", "five_card_stud", "cowpie"):
        o = built[name].options
        assert (o.ante, o.bring_in, o.small_bet, o.big_bet, o.stack) == (1, 3, 6, 12, 1200), name
        assert built[name].unit == 12
    chowaha = built["chowaha"].options
    assert (chowaha.ante, chowaha.small_blind, chowaha.big_blind, chowaha.stack) == (1, 3, 6, 1200)
    assert built["cowboy"].options.ante == built["cowpattie"].options.ante == 3
    assert table(3, games=games, stakes=stakes).unit == 12  # rewards in big bets of the stakes


def test_default_stakes_are_ante_0_bets_2_and_4() -> None:
    built = games_of(table(3, games=("stud", "chowaha", "cowgirl")))
    o = built["stud"].options
    assert (o.ante, o.bring_in, o.small_bet, o.big_bet, o.stack) == (0, 1, 2, 4, 400)
    c = built["chowaha"].options
    assert (c.small_blind, c.big_blind, c.betting, c.stack) == (1, 2, "limit", 400)
    assert built["cowgirl"].options.ante == 1
    assert Stakes() == Stakes(ante=0, small_bet=2, big_bet=4)


def test_toy_stud_antes_the_bring_in_and_keeps_its_deck() -> None:
    built = games_of(table(2, games=("toy_stud", "stud")))
    toy = built["toy_stud"].options
    assert (toy.ante, toy.small_bet, toy.big_bet, toy.stack) == (1, 2, 4, 400)  # no bring-in: the ante is one
    assert games_of(table(2, games=("toy_stud",), stakes={"ante": 3}))["toy_stud"].options.ante == 3
    st = table(2, games=("toy_stud", "stud")).new_state(4)
    choose(st, "toy_stud")
    deck = set(built["toy_stud"].deck)
    assert set(st.stub) | {c for cards in st.cards for c in cards} == deck
    assert sorted(st.card_locations()["set aside"] + sorted(deck)) == list(range(52))
    call_down(st)
    assert sorted(c for pile in st.card_locations().values() for c in pile) == list(range(52))
    assert replay(HandRecord.from_json(HandRecord.of(st).to_json())).payoffs() == st.payoffs()


def test_chowaha_pays_in_big_bets_of_the_stakes() -> None:
    """A chip means the same in every game: Chowaha's reward is chips / big bet (4),
    not chips / big blind (2) as at its own table."""
    st = table(2, games=("chowaha", "stud")).new_state(0, button=0)
    choose(st, "chowaha")
    while not st.is_over:
        st.apply(FOLD if FOLD in st.legal_actions() else CHECK_CALL)
    assert st.payoffs() == [-1, 1]  # the button (small blind) folds preflop
    assert st.rewards() == [-0.25, 0.25]


def test_a_cowboy_game_is_the_whole_episode_with_unlimited_stacks() -> None:
    st = table(3, games=("cowboy", "razz"), game_options={"cowboy": {"max_deals": 3, "match_cap": 4}}).new_state(1)
    assert st.table_stacks == [400] * 3
    choose(st, "cowboy")
    assert st.unlimited == [True] * 3 and st.playing.variant.episode == "game"
    rng = np.random.default_rng(0)
    while not st.is_over:
        st.apply(int(rng.choice(st.legal_actions())))
    assert sum(st.payoffs()) == 0 and st.family.deal >= 1
    assert st.rewards() == [p / 4 for p in st.payoffs()]  # antes of 1 chip, rewards in big bets
    record = HandRecord.from_json(HandRecord.of(st).to_json())
    assert record.stacks == [400] * 3  # the table's stacks, as built
    assert replay(record).payoffs() == st.payoffs()


# -------------------------------------------------------------- game options
def test_game_options_override_the_stakes_for_one_game() -> None:
    game = table(2, game_options={"chowaha": {"betting": "pot_limit"}, "razz": {"ante": 2, "raise_cap": 2}})
    built = games_of(game)
    assert built["chowaha"].options.betting == "pot_limit" and built["stud"].options.ante == 0
    assert (built["razz"].options.ante, built["razz"].options.raise_cap) == (2, 2)
    assert game.options.game_options == (
        ("chowaha", (("betting", "pot_limit"),)),
        ("razz", (("ante", 2), ("raise_cap", 2))),
    )  # stored as sorted pairs: hashable


def test_chowaha_limit_needs_the_big_bet_to_be_twice_the_small_bet() -> None:
    with pytest.raises(ValueError, match=r"chowaha \(limit\) bets twice its big blind.*big_bet=5"):
        table(2, stakes={"small_bet": 2, "big_bet": 5})
    table(2, games=("stud",), stakes={"small_bet": 2, "big_bet": 5})  # no Chowaha: any big bet
    pot = table(2, stakes={"small_bet": 2, "big_bet": 5}, game_options={"chowaha": {"betting": "pot_limit"}})
    assert games_of(pot)["chowaha"].options.big_blind == 2  # the big bet plays no part there


BAD_OPTIONS = [
    ({"games": ("holdem",)}, r"option games lists 'holdem', which is not a game; games: stud, razz"),
    ({"games": ("cowboy",)}, r"option games lists 'cowboy', which seats 3 to 7 players; the table has 2"),
    ({"games": ("toy_stud",), "stack": 100}, r"toy_stud takes no stack option: its stack is 400 chips"),
    ({"games": ("stud", "stud")}, r"option games lists 'stud' twice"),
    ({"games": ()}, r"option games=\(\) is not allowed: expected a non-empty list"),
    ({"games": "stud"}, r"option games='stud' is not allowed"),
    ({"games": (3,)}, r"option games holds 3: expected game names"),
    ({"choice": "vote"}, r"option choice='vote' is not allowed: expected one of 'dealer', 'rotate', 'random'"),
    ({"hands_per_game": 2}, r"hands_per_game=2 is only used with choice='rotate'"),
    ({"choice": "rotate", "hands_per_game": 0}, r"option hands_per_game=0 is not allowed"),
    ({"stakes": {"small_bet": 1}}, r"option stakes.small_bet=1 is not allowed: expected an int in 2\.\."),
    ({"stakes": {"big_bet": 1}}, r"option stakes.big_bet=1 is not allowed"),
    ({"stakes": {"ante": -1}}, r"option stakes.ante=-1 is not allowed"),
    ({"stakes": {"blinds": 2}}, r"option stakes has an unknown field 'blinds'"),
    ({"stakes": 4}, r"option stakes=4 is not allowed: expected a Stakes or a dict"),
    ({"game_options": {"razz": {"max_deals": 3}}}, r"razz at this table .*unknown option 'max_deals' for razz"),
    ({"game_options": {"razz": {"ante": -2}}}, r"razz at this table .*option ante=-2 is not allowed"),
    ({"game_options": {"cowboy": {"ante": 2}}}, r"game_options sets options of 'cowboy', which this table does not"),
    ({"game_options": {"razz": {"button": 1}}}, r"game_options\['razz'\] sets button: the table's button option"),
    ({"game_options": ["razz"]}, r"option game_options=\['razz'\] is not allowed: expected a dict"),
    ({"game_options": {"razz": 3}}, r"option game_options\['razz'\]=3 is not allowed"),
    ({"stack": 0}, r"stack"),
    ({"button": 5}, r"option button=5 is not allowed"),
    ({"variant": "stud"}, r"unknown option 'variant' for dealers_choice; known options: button, choice"),
]


@pytest.mark.parametrize(("options", "message"), BAD_OPTIONS, ids=[str(o) for o, _ in BAD_OPTIONS])
def test_bad_options_are_named(options: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        table(2, **options)


def test_long_input_is_quoted_short() -> None:
    with pytest.raises(ValueError) as err:
        table(2, games=("x" * 5000,))
    assert len(str(err.value)) < 600 and "(5000 characters)" in str(err.value)


# ------------------------------------------------------------ which games
@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (2, SEVEN_HANDED),
        (7, SEVEN_HANDED),
        (8, ["stud", "razz", "stud_hilo", "stud_hilo_declare", "chowaha", "five_card_stud"]),
        (10, ["chowaha", "five_card_stud"]),
        (20, ["chowaha"]),
    ],
)
def test_by_default_every_hand_based_game_that_seats_the_table(n: int, expected: list[str]) -> None:
    """Cowboy games (an episode is a game) and toy stud (a game for solving) only when
    listed; every other game that seats the table, in registry order."""
    assert list(games_of(table(n))) == expected


def test_the_default_list_follows_options_that_change_a_games_seats() -> None:
    """Chowaha with four hole cards seats at most ten: at eleven no game is left."""
    assert list(games_of(table(10, game_options={"chowaha": {"hole_cards": 4}}))) == ["chowaha", "five_card_stud"]
    assert list(games_of(table(11))) == ["chowaha"]
    with pytest.raises(ValueError, match="no game seats 11 players: list games that do"):
        table(11, game_options={"chowaha": {"hole_cards": 4}})
    with pytest.raises(ValueError, match="num_players=21 is not allowed"):
        table(21)


def test_every_game_but_the_table_itself_may_be_listed() -> None:
    for name, variant in VARIANTS.items():
        if name == "dealers_choice":
            with pytest.raises(ValueError, match="'dealers_choice', which is not a game"):
                table(3, games=(name,))
            continue
        n = max(variant.seats[0], min(3, variant.seats[1]))
        assert list(games_of(table(n, games=(name,)))) == [name]
    assert get_variant("dealers_choice").seats == (2, 20)


# ------------------------------------------------------------------ records
@pytest.mark.parametrize("choice", ["dealer", "rotate", "random"])
def test_every_choice_mode_replays_from_its_record(choice: str) -> None:
    game = table(3, choice=choice)
    rng = np.random.default_rng(3)
    st = game.new_state(9, hand=5)
    while not st.is_over:
        st.apply(int(rng.choice(st.legal_actions())))
    record = HandRecord.of(st)
    data = record.to_dict()
    assert data["hand"] == 5 and data["options"]["stakes"] == {"ante": 0, "small_bet": 2, "big_bet": 4}
    again = replay(HandRecord.from_json(record.to_json()))
    assert again.playing.name == st.playing.name and again.payoffs() == st.payoffs()
    assert hand_history(again) == hand_history(st)


def test_a_record_of_hand_0_has_no_hand_field() -> None:
    """Records of single-game tables are unchanged: ``hand`` is written only when set."""
    st = make_game("stud", 2).new_state(0)
    call_down(st)
    assert "hand" not in HandRecord.of(st).to_dict()
    with pytest.raises(Exception, match="hand"):
        HandRecord.from_dict({**HandRecord.of(st).to_dict(), "hand": -1})


def test_the_game_is_switched_only_before_play_begins() -> None:
    game = table(2, games=("stud", "razz"))
    st = game.new_state(0)
    choose(st, "stud")
    with pytest.raises(ValueError, match=r"cannot switch to razz .*play has begun"):
        st.switch(games_of(game)["razz"])
    with pytest.raises(ValueError, match="built for 3 players"):
        game.new_state(0).switch(make_game("razz", 3))


def test_a_raise_in_the_chosen_game_uses_the_tables_indices() -> None:
    st = table(2, games=("stud",)).new_state(2)
    choose(st, "stud")
    call_down(st, streets=[])
    assert RAISE in st.legal_actions() and st.legal_labels()[st.legal_actions().index(RAISE)] == "raise"
