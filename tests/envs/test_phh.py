"""PHH export and import: our stud, razz and stud 8 hands read back with PokerKit's own
parser replay to our payoffs; PokerKit-written and hand-written PHH files replay with
our engine to PokerKit's (and the hand-computed) payoffs; what PHH cannot express, and
every malformed file, is refused naming the reason."""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE
from envs.engine.cards import format_card, parse
from envs.engine.history import HandRecord
from envs.engine.state import State
from envs.phh import PHHError, from_phh, from_phh_all, to_phh, to_phh_all
from envs.variants import make_game, replay
from tests.variants.scripted import act, call_down, stud_deck

pokerkit = pytest.importorskip("pokerkit")

NAMES = ("stud", "razz", "stud_hilo")
CHIPS = {"bring_in": 60, "small_bet": 120, "big_bet": 240}  # multiples of 60: most splits are even
GAMES = {
    "stud": "FixedLimitSevenCardStud",
    "razz": "FixedLimitRazz",
    "stud_hilo": "FixedLimitSevenCardStudHighLowSplitEightOrBetter",
}


def _random_hand(name: str, seed: int) -> State:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 9))
    options = {
        **CHIPS,
        "ante": int(rng.choice([0, 60])),
        "stack": [None, 60_000, 1200, 600, 300][int(rng.integers(5))],
        "cap_heads_up": bool(rng.integers(2)),
    }
    state = make_game(name, n, **options).new_state(rng, button=int(rng.integers(n)))
    while not state.is_over:
        legal = state.legal_actions()
        weights = np.array([0.15 if a == FOLD else 1.0 for a in legal])  # long hands, many showdowns
        state.apply(legal[int(rng.choice(len(legal), p=weights / weights.sum()))])
    return state


def _pokerkit_payoffs(text: str, state: State) -> list[int]:
    """PokerKit's replay of ``text`` (its own parser), as payoffs by our seat."""
    *_, pk = pokerkit.HandHistory.loads(text)  # iterate its states to the last
    assert not pk.status, "PokerKit's hand is not over"
    order = [(state.button + 1 + i) % state.n for i in range(state.n)]
    payoffs = [0] * state.n
    for i, seat in enumerate(order):
        payoffs[seat] = int(pk.payoffs[i])
    return payoffs


def _same_hand(back: HandRecord, record: HandRecord) -> None:
    assert back.dealt == record.dealt
    assert back.decisions == record.decisions
    assert back.payoffs == record.payoffs
    assert back.button == record.button
    assert back.options == record.options


@pytest.mark.parametrize("name", NAMES)
def test_exported_hands_replay_in_pokerkit(name: str) -> None:
    compared = odd = refused = 0
    seen_players, all_ins = set(), 0
    for seed in range(45):
        state = _random_hand(name, seed)
        record = HandRecord.of(state)
        try:
            text = to_phh(record)
        except PHHError as err:  # only what PHH cannot say
            assert "caps every street at 4" in str(err) or "community card" in str(err), err
            refused += 1
            continue
        _same_hand(from_phh(text), record)
        if state.odd_chips:
            odd += 1  # PokerKit's odd-chip rule differs by design (module docstring)
            continue
        assert _pokerkit_payoffs(text, state) == state.payoffs(), f"{name} seed {seed}\n{text}"
        compared += 1
        seen_players.add(state.n)
        all_ins += any(s == 0 for s in state.stack)
    assert compared >= 30, (compared, odd, refused)
    assert len(seen_players) >= 5 and all_ins >= 3, (seen_players, all_ins)


def _scripted_all_in() -> State:
    """Three-handed stud, short stack player_2: bring-in, completion, raises, an all-in
    on fourth street and a showdown with a side pot."""
    n, button = 3, 0
    hands = {1: "2c 3d 4s 5h 9s Kd 2h", 2: "Ah Ad 5c 8h Ts 6s Qs", 0: "Kc Ks 7c 9h Jc 3c 4h"}
    deck = stud_deck(n, button, hands, last_street={1: 0})
    state = make_game("stud", n, ante=10, bring_in=20, small_bet=40, big_bet=80, stack=(1000, 1000, 130)).new_state(
        0, button=button, deck=deck
    )
    # third street: 4s (player_1) is the lowest up card and brings in
    act(state, (1, BRING_IN), (2, RAISE), (0, RAISE), (1, FOLD), (2, CHECK_CALL))
    # fourth street: player_2's 5c 8h is all-in after a bet of 40
    act(state, (0, RAISE), (2, CHECK_CALL))
    call_down(state)
    return state


def test_scripted_bring_in_completion_all_in() -> None:
    state = _scripted_all_in()
    assert state.stack[2] == 0 and state.is_over
    record = HandRecord.of(state)
    text = to_phh(record)
    assert "p1 pb" in text and "p2 cbr 40" in text and "p3 cbr 80" in text  # bring-in, complete, raise
    assert text.count("p2 sm ") == 2  # PHH shows at the all-in and again at the end
    assert _pokerkit_payoffs(text, state) == state.payoffs()
    _same_hand(from_phh(text), record)


def test_several_hands_in_one_file() -> None:
    records = [HandRecord.of(_random_hand("razz", seed)) for seed in (1, 2, 3)]
    text = to_phh_all(records)
    assert [r.payoffs for r in from_phh_all(text)] == [r.payoffs for r in records]
    assert len(list(pokerkit.HandHistory.loads_all(text))) == 3


def test_player_names() -> None:
    state = make_game("razz", 3).new_state(4, button=2)
    call_down(state)
    text = to_phh(HandRecord.of(state), players=["Ann", "Bob", 'Cy "the kid"'])
    assert 'players = ["Ann", "Bob", "Cy \\"the kid\\""]' in text  # p1 is seat 0 (left of the button)
    with pytest.raises(PHHError, match=r"players: 2 names for 3 seats"):
        to_phh(HandRecord.of(state), players=["Ann", "Bob"])


# ------------------------------------------------------------------ PokerKit-written files
def _pokerkit_written(name: str, state: State) -> tuple[str, list[int]]:
    """PokerKit plays our hand (our cards, our actions) and writes it as PHH."""
    automations = (
        pokerkit.Automation.ANTE_POSTING,
        pokerkit.Automation.BET_COLLECTION,
        pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
        pokerkit.Automation.CARD_BURNING,
        pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
        pokerkit.Automation.HAND_KILLING,
        pokerkit.Automation.CHIPS_PUSHING,
        pokerkit.Automation.CHIPS_PULLING,
    )
    o = state.game.options
    game = getattr(pokerkit, GAMES[name])(automations, True, o.ante, o.bring_in, o.small_bet, o.big_bet)
    order = [(state.button + 1 + i) % state.n for i in range(state.n)]
    pk = game([state.start_stack[s] for s in order], state.n)
    for e in state.events:
        if e.kind == "deal":
            pk.deal_hole(format_card(e.cards[0]), order.index(e.seat))
        elif e.kind == "action":
            if e.action == FOLD:
                pk.fold()
            elif e.action == CHECK_CALL:
                pk.check_or_call()
            elif e.action == BRING_IN:
                pk.post_bring_in()
            else:
                pk.complete_bet_or_raise_to(e.amount)
    assert not pk.status
    text = pokerkit.HandHistory.from_game_state(game, pk).dumps()
    return text, [int(pk.payoffs[order.index(seat)]) for seat in range(state.n)]


@pytest.mark.filterwarnings("ignore:A card being dealt:UserWarning")
@pytest.mark.parametrize("name", NAMES)
def test_pokerkit_written_files_replay_here(name: str) -> None:
    compared = 0
    for seed in range(100, 125):
        state = _random_hand(name, seed)
        if state.odd_chips or state.community or state.n < 3:
            continue  # PokerKit caps heads-up play; odd chips follow its own rule
        try:
            text, payoffs = _pokerkit_written(name, state)
        except ValueError:
            continue  # a street over PokerKit's four-bet cap
        record = from_phh(text)  # no button in the file: p1 is seat 0
        n = state.n
        assert record.button == n - 1
        assert record.payoffs == [payoffs[(state.button + 1 + i) % n] for i in range(n)], text
        compared += 1
    assert compared >= 10


# ------------------------------------------------------------------ hand-written files
RAZZ_HAND = """
# A heads-up razz hand written by hand: p1 makes a wheel.
variant = 'FR'
antes = [1, 1]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [50, 50]
actions = [
  'd dh p1 2c3dKh',  # p1's king brings in
  'd dh p2 4s5h6c',
  'p1 pb',
  'p2 cbr 2 # completes',
  'p1 cc',
  'd dh p1 7d', 'd dh p2 8d',
  'p2 cbr 2', 'p1 cc',   # p2's 8-6 is the lowest board
  'd dh p1 Ah', 'd dh p2 9c',
  'p2 cbr 4', 'p1 cc',
  'd dh p1 4c', 'd dh p2 Qs',
  'p2 cc', 'p1 cbr 4', 'p2 cc',
  'd dh p1 5d', 'd dh p2 Td',
  'p2 cc', 'p1 cbr 4', 'p2 cc',
  'p1 sm -',
  'p2 sm',  # mucks the loser
]
finishing_stacks = [67, 33]
"""

STUD8_HAND = """
variant = "F7S/8"
antes = [0, 0, 0]
bring_in = 1
small_bet = 2
big_bet = 4
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 As2d3c", "d dh p2 KdKhKs", "d dh p3 8c8dTc",
  "p1 pb", "p2 cbr 2", "p3 cc", "p1 cc",
  "d dh p1 4h", "d dh p2 Qc", "d dh p3 6d",
  "p2 cbr 2", "p3 f", "p1 cc",
  "d dh p1 5s", "d dh p2 Qd",
  "p2 cbr 4", "p1 cc",
  "d dh p1 9d", "d dh p2 2c",
  "p2 cc", "p1 cc",
  "d dh p1 Jh", "d dh p2 7c",
  "p2 cbr 4", "p1 cc",
  "p1 sm As2d3c4h5s9dJh", "p2 sm KdKhKsQcQd2c7c",
]
"""


@pytest.mark.parametrize(
    ("text", "payoffs", "p1_cards"),
    [(RAZZ_HAND, [17, -17], "[2c 3d] Kh 7d Ah 4c [5d]"), (STUD8_HAND, [1, 1, -2], "[As 2d] 3c 4h 5s 9d [Jh]")],
    ids=["razz", "stud_hilo"],
)
def test_hand_written_files(text: str, payoffs: list[int], p1_cards: str) -> None:
    record = from_phh(text)
    assert record.payoffs == payoffs  # computed by hand: a wheel scoops razz; stud 8 splits 26
    assert record.dealt is not None and record.dealt["player_0"] == p1_cards
    assert replay(record).is_over
    pk = list(pokerkit.HandHistory.loads(text))[-1]
    assert [int(p) for p in pk.payoffs] == payoffs


# ------------------------------------------------------------------ refusals
def _called_down(name: str, n: int, deck: list[int] | None = None, **options: object) -> HandRecord:
    state = make_game(name, n, **options).new_state(3, button=0, deck=deck)
    call_down(state)
    return HandRecord.of(state)


def test_export_refuses_what_phh_cannot_say() -> None:
    with pytest.raises(PHHError, match=r"variant 'stud_hilo_declare' has no PHH code; PHH covers stud \(F7S\)"):
        to_phh(_called_down("stud_hilo_declare", 3))
    with pytest.raises(PHHError, match=r"bring_in=None"):
        to_phh(_called_down("razz", 3, bring_in=None))
    with pytest.raises(PHHError, match=r"low_qualifier=7: PHH's F7S/8 is eight-or-better only"):
        to_phh(_called_down("stud_hilo", 3, low_qualifier=7))
    with pytest.raises(PHHError, match=r"community card"):
        to_phh(_called_down("stud", 8))  # eight players who all stay: 56 cards
    state = make_game("stud", 2).new_state(1, button=0)
    state.apply(BRING_IN)
    for _ in range(5):
        state.apply(RAISE)
    state.apply(CHECK_CALL)
    with pytest.raises(PHHError, match=r"third street has 5 bets and raises; PHH \(PokerKit\) caps every street at 4"):
        to_phh(HandRecord.of(state))


def test_open_pair_big_bet() -> None:
    deck = stud_deck(3, 0, {1: "2c 3d 9s 9h 4s 5h 6c", 2: "Ah Ad Kc 7h 8s Ts Qs", 0: "Kd Ks Jc 3c 2d 4d 5d"})
    game = make_game("stud", 3, open_pair_big_bet=True)
    state = game.new_state(0, button=0, deck=deck)
    call_down(state, streets=[0])
    act(state, (1, RAISE))  # player_1's open nines: a big bet on fourth street
    assert state.contrib[1] == game.options.big_bet
    call_down(state)
    with pytest.raises(PHHError, match=r"player_1's open pair made fourth street's bets big bets"):
        to_phh(HandRecord.of(state))
    quiet = game.new_state(0, button=0, deck=deck)
    call_down(quiet)  # nobody bets fourth street: nothing PHH cannot say
    assert from_phh(to_phh(HandRecord.of(quiet))).payoffs == quiet.payoffs()


def _edit(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new)


BAD_FILES = [
    ("variant = 'FR'\nantes = [", r"not a PHH \(TOML\) text"),
    (_edit(RAZZ_HAND, "'FR'", "'NT'"), r"variant: 'NT' is not one we play; we read F7S \(stud\)"),
    (_edit(RAZZ_HAND, "bring_in = 1\n", ""), r"bring_in: missing \(a FR hand needs"),
    (_edit(RAZZ_HAND, "antes = [1, 1]", "antes = [1, 2]"), r"antes: \[1, 2\] differ by player"),
    (_edit(RAZZ_HAND, "small_bet = 2", "small_bet = 2\nmin_bet = 2"), r"min_bet: not a field of FR"),
    (_edit(RAZZ_HAND, "[50, 50]", "[50, 'x']"), r"starting_stacks\[1\]: 'x' is not allowed"),
    (_edit(RAZZ_HAND, "[50, 50]", "[50, inf]"), r"starting_stacks: mixes inf and finite"),
    (_edit(RAZZ_HAND, "'d dh p2 4s5h6c'", "'d dh p2 ????6c'"), r"action 2 'd dh p2 \?\?\?\?6c': unknown cards"),
    (_edit(RAZZ_HAND, "'d dh p2 4s5h6c'", "'d dh p2 4s5h2c'"), r"2c is dealt twice"),
    (_edit(RAZZ_HAND, "'d dh p2 4s5h6c'", "'d dh p2 4s5h6x'"), r"action 2 .*unknown card '6x'"),
    (_edit(RAZZ_HAND, "'d dh p2 4s5h6c'", "'d dh p3 4s5h6c'"), r"'p3' is not a player: expected p1..p2"),
    (_edit(RAZZ_HAND, "'d dh p1 7d',", "'d db 7d',"), r"action 6 'd db 7d': board cards"),
    (_edit(RAZZ_HAND, "'p1 pb'", "'p2 pb'"), r"action 3 'p2 pb': p2 is not to act; p1 is"),
    (_edit(RAZZ_HAND, "'p1 pb'", "'p1 f'"), r"action 3 'p1 f': not legal here"),
    (_edit(RAZZ_HAND, "'p2 cbr 2 # completes'", "'p2 cbr 3'"), r"makes p2's total this street 2, not 3"),
    (_edit(RAZZ_HAND, "'p2 cbr 2 # completes'", "'p2 cbr lots'"), r"the amount 'lots' is not a whole number"),
    (_edit(RAZZ_HAND, "'p1 sm -'", "'p1 sm'"), r"action 24 'p1 sm': p1 mucks, but .* wins 34"),
    (_edit(RAZZ_HAND, "'p1 sm -'", "'p1 sm 2c3dKh7dAh4c6s'"), r"p1 shows 6s, not among the cards dealt"),
    (_edit(RAZZ_HAND, "[67, 33]", "[66, 34]"), r"finishing_stacks: p1 ends with 66 in the file, 67 in our replay"),
    (_edit(RAZZ_HAND, "'p2 sm',", "'p2 sd',"), r"draws \('sd'\) are not part of stud"),
    (_edit(RAZZ_HAND, "'p2 sm',", "'p2 jumps',"), r"not PHH stud notation"),
    (_edit(RAZZ_HAND, "'p2 sm',", "'p2 cc',"), r"action 25 'p2 cc': the hand is already over"),
    (_edit(RAZZ_HAND, "'p2 sm',", "7,"), r"action 25: 7 is not allowed: expected a string"),
    (RAZZ_HAND + "_dealers_choice = '{\"button\": 5}'", r"_dealers_choice: button 5 is not allowed"),
    (RAZZ_HAND + "_dealers_choice = '{\"seed\": 5}'", r"_dealers_choice: unknown key 'seed'"),
    (RAZZ_HAND + "_dealers_choice = '{\"raise_cap\": -1}'", r"the PHH game has no razz equivalent here: option"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES, ids=[m[:40] for _, m in BAD_FILES])
def test_bad_files_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(PHHError, match=message):
        from_phh(text)


def test_finishing_stacks_check_can_be_skipped() -> None:
    text = _edit(RAZZ_HAND, "[67, 33]", "[66, 34]")
    assert from_phh(text, check_finishing_stacks=False).payoffs == [17, -17]


def test_cards_of_a_stacked_deck() -> None:
    """The imported record's deck starts with the dealt cards in our dealing order."""
    record = from_phh(RAZZ_HAND)
    assert record.stacked == 14
    assert record.deck[:6] == parse("2c 4s 3d 5h Kh 6c")
