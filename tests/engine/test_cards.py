"""Card integers and their text forms."""

import pytest

from envs.engine.cards import card, format_card, format_cards, parse, parse_card, rank_of, suit_of


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
    with pytest.raises(ValueError):
        format_card(52)


def test_parse_card_needs_exactly_one() -> None:
    with pytest.raises(ValueError, match="exactly one"):
        parse_card("As Kd")
