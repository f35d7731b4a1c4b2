"""Option and reset-argument checks, and how messages quote user input."""

from __future__ import annotations

import numpy as np
import pytest

from envs.engine.errors import IllegalActionError
from envs.engine.options import QUOTE_LIMIT, check_choice, check_int, check_seat, check_seed, quoted


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("As Kd", "'As Kd'"),
        (12, "12"),
        ([1, 2], "[1, 2]"),
        ("x" * 200, "'" + "x" * (QUOTE_LIMIT - 1) + "... (200 characters)"),
        (list(range(1000)), repr(list(range(1000)))[:QUOTE_LIMIT] + f"... ({len(repr(list(range(1000))))} characters)"),
        (10**5000, "<int of 16610 bits>"),  # past Python's int-to-str limit: repr itself would raise
    ],
    ids=["short", "int", "list", "long-string", "long-list", "huge-int"],
)
def test_quoted(value: object, expected: str) -> None:
    assert quoted(value) == expected


def test_option_messages_cut_long_values() -> None:
    for check in (lambda v: check_int("ante", v, 0), lambda v: check_choice("betting", v, ("limit",))):
        with pytest.raises(ValueError) as err:
            check("z" * 900_000)
        assert "... (900000 characters)" in str(err.value) and len(str(err.value)) < 300


def test_illegal_action_message_cuts_the_action() -> None:
    err = IllegalActionError("a" * 900_000, "stud, third street", ["fold", "check_call"])
    assert "... (900000 characters)" in str(err) and len(str(err)) < 300
    assert err.action == "a" * 900_000  # the exception keeps the whole value


@pytest.mark.parametrize(
    ("seed", "expected"), [(None, None), (0, 0), (2**70, 2**70), (np.int64(5), 5), (np.uint8(3), 3)], ids=repr
)
def test_check_seed_accepts(seed: object, expected: int | None) -> None:
    result = check_seed(seed)
    assert result == expected and (result is None or type(result) is int)


@pytest.mark.parametrize(
    ("seed", "error"),
    [("abc", TypeError), ("7", TypeError), (1.0, TypeError), (True, TypeError), (np.bool_(False), TypeError),
     ([1, 2], TypeError), (-1, ValueError), (np.int8(-3), ValueError)],
    ids=repr,
)  # fmt: skip
def test_check_seed_refuses(seed: object, error: type) -> None:
    with pytest.raises(error, match=r"is not allowed: expected None or an int >= 0"):
        check_seed(seed)


def test_check_seat() -> None:
    assert check_seat("button", np.int64(2), 3) == 2 and type(check_seat("button", np.int64(2), 3)) is int
    for bad in (3, -1, True, 1.0, "0", None):
        with pytest.raises(ValueError, match=r"option button=.* is not allowed: expected an int in 0\.\.2"):
            check_seat("button", bad, 3)
