"""Card integers and their text forms."""

import numpy as np
import pytest

from envs.engine.cards import card, format_card, format_cards, parse, parse_card, parse_deck, rank_of, suit_of
from envs.variants import make_game


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2c", [0]),
        ("2d", [1]),
        ("As", [51]),
        ("Td", [33]),
        ("10d", [33]),
        ("K♠", [47]),
        ("k♤", [47]),
        ("ah", [50]),
        ("As Kd", [51, 45]),
        ("AsKd", [51, 45]),
        ("As,  Kd\nQh", [51, 45, 42]),
        ("", []),
    ],
    ids=lambda x: repr(x),
)
def test_parse_forms(text: str, expected: list[int]) -> None:
    assert parse(text) == expected


def test_card_layout_is_rank_times_four_plus_suit() -> None:
    assert card(0, 0) == 0 and card(12, 3) == 51
    for c in range(52):
        assert card(rank_of(c), suit_of(c)) == c
        assert parse_card(format_card(c)) == c
        assert parse_card(format_card(c, symbols=True)) == c


@pytest.mark.parametrize(("bad", "token"), [("Zz", "Zz"), ("1s", "1s"), ("Ax", "Ax"), ("As K", "K"), ("11d", "11d")])
def test_unknown_card_names_token_and_forms(bad: str, token: str) -> None:
    with pytest.raises(ValueError) as err:
        parse(bad)
    message = str(err.value)
    assert f"unknown card {token!r}" in message
    assert "expected rank" in message


def test_parse_zz_message() -> None:
    with pytest.raises(ValueError, match=r"unknown card 'Zz'.*expected rank 2-9, T or 10"):
        parse("Zz")


def test_duplicates_are_an_error() -> None:
    with pytest.raises(ValueError, match="duplicate card 'As'"):
        parse("As Kd as")


def test_format_cards_round_trip() -> None:
    cards = parse("2c 9h Td Js As")
    assert format_cards(cards) == "2c 9h Td Js As"
    assert format_cards(cards, symbols=True) == "2♣ 9♥ T♦ J♠ A♠"
    assert format_card(52) == "Jk"  # the joker of the wild-card house rules (docs/rules.md section 11)
    with pytest.raises(ValueError):
        format_card(53)


def test_parse_card_needs_exactly_one() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        parse_card("As Kd")


# ------------------------------------------------------------------ stacked decks
@pytest.mark.parametrize(
    ("deck", "expected"),
    [
        ("As Kd", [51, 45]),
        (["As", "Kd Qh"], [51, 45, 42]),
        ([51, np.int32(45), "Qh"], [51, 45, 42]),
        (np.asarray([0, 1, 2], dtype=np.uint8), [0, 1, 2]),
        (range(3), [0, 1, 2]),
        ([], []),
    ],
    ids=["string", "strings", "mixed", "uint8-array", "range", "empty"],
)
def test_parse_deck_forms(deck: object, expected: list[int]) -> None:
    cards = parse_deck(deck)
    assert cards == expected and all(type(c) is int for c in cards)


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ([1.5, 2.7], r"stacked deck entry 0 is 1\.5 \(float\), not a card: expected a card int 0\.\.51 or a card str"),
        ([4, 2.0], r"stacked deck entry 1 is 2\.0 \(float\)"),
        ([True, False], r"stacked deck entry 0 is True \(bool\)"),
        ([np.bool_(True)], r"stacked deck entry 0 is np\.True_ \(bool\)"),
        ([0, 1, None], r"stacked deck entry 2 is None \(NoneType\)"),
        ([[0, 1], [2, 3]], r"stacked deck entry 0 is \[0, 1\] \(list\)"),
        ([-1], "stacked deck entry 0 is -1, not a card: expected a card int 0..51"),
        ([np.int64(52)], r"stacked deck entry 0 is np\.int64\(52\), not a card: expected a card int 0\.\.51"),
        (["As", "Zz"], "stacked deck entry 1: unknown card 'Zz' in 'Zz'"),
        (["As Ks", 51], r"stacked deck holds As twice \(entries 0 and 1\)"),
        ("As Kd as", "duplicate card 'As' in 'As Kd as'"),
        (b"As", "a stacked deck must be a string of cards or a sequence of card ints 0..51"),
        ({51, 50}, "got set"),
        (51, "got int 51"),
    ],
    ids=lambda x: repr(x)[:30],
)
def test_parse_deck_refuses_what_is_not_a_card(deck: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_deck(deck)


def test_new_state_checks_the_deck_and_button_before_dealing() -> None:
    game = make_game("stud", 2)
    rng = np.random.default_rng(0)
    before = rng.bit_generator.state
    with pytest.raises(ValueError, match=r"stacked deck entry 1 is 2\.7 \(float\)"):
        game.new_state(rng, deck=[51, 2.7])
    with pytest.raises(ValueError, match=r"option button=1\.0 is not allowed: expected an int in 0\.\.1"):
        game.new_state(rng, button=1.0)  # type: ignore[arg-type]
    assert rng.bit_generator.state == before
    assert game.new_state(0, deck=np.arange(6)).cards == game.new_state(0, deck=list(range(6))).cards


def test_parse_messages_cut_long_input() -> None:
    text = "As " + "x" * 900_000
    with pytest.raises(ValueError) as err:
        parse(text)
    message = str(err.value)
    assert "... (900000 characters)" in message and "... (900003 characters)" in message and len(message) < 500
    with pytest.raises(ValueError, match=r"\.\.\. \(2000 characters\)"):
        parse_card("As" * 1000)
