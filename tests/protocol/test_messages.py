"""The protocol's messages as data: the view on the wire equals ``view_to_data``'s, the
events a bot appends add up to the seat's whole history, and answers are read strictly
(indices and names, nothing remapped)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import envs
from envs.view import view_to_data
from evaluation import protocol
from tests.envs.cases import PLAYER_RANGE


def _views(name: str, seed: int = 1):  # type: ignore[no-untyped-def]
    """Every decision's view of one random hand (or game), with the env."""
    env = envs.make_raw(name, min(3, PLAYER_RANGE[name][1]))
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while not env.state.is_over:
        view = env.public_view(env.possible_agents[env.state.current_seat])
        yield env, view
        legal = env.state.legal_actions()
        env.step(legal[int(rng.integers(len(legal)))])


@pytest.mark.parametrize("name", sorted(PLAYER_RANGE))
def test_the_wire_view_is_view_to_data(name: str) -> None:
    for _, view in _views(name):
        for skip in (0, len(view.events) // 2):
            wire = json.loads(protocol.encode(protocol.decision_message(view, hand=0, skip_events=skip)))
            assert wire["view"] == json.loads(json.dumps(view_to_data(view, skip_events=skip)))


def test_appended_events_are_the_whole_history() -> None:
    """What a bot keeps by appending each message's events equals the seat's log."""
    kept: dict[int, list[list[object]]] = {}
    for env, view in _views("stud_hilo_declare", seed=4):  # noqa: B007 (env: the table after the hand)
        known = len(kept.get(view.seat, []))
        wire = json.loads(protocol.encode(protocol.decision_message(view, hand=0, skip_events=known)))
        assert wire["view"]["events_from"] == known
        kept.setdefault(view.seat, []).extend(wire["view"]["events"])
        assert kept[view.seat] == json.loads(json.dumps(view_to_data(view)))["events"]
    final = env.public_view("player_0")
    message = protocol.end_hand_message(final, list(env.state.rewards()), hand=0)
    assert abs(sum(message["payoffs"])) < 1e-9
    assert all(s["cards"] for s in message["shown"])  # a show names the cards shown


def _stud_view():  # type: ignore[no-untyped-def]
    return next(v for _, v in _views("stud") if "fold" in v.legal_names)


@pytest.mark.parametrize(
    ("line", "expected"),
    [(b'{"action": 1}', 1), (b'{"action": "check_call"}', 1), (b'{"type": "action", "action": "fold"}', 0),
     (b'  {"action" : 0}  ', 0)],
)  # fmt: skip
def test_an_answer_by_index_or_name(line: bytes, expected: int) -> None:
    view = _stud_view()
    assert protocol.parse_action(line, view, envs.make_raw("stud", 3).action_names) == expected


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b'{"action": true}', "a boolean"),
        (b'{"action": 1.0}', "a JSON float"),
        (b'{"action": "declare_low"}', "'declare_low', which is not legal now"),
        (b'{"action": "all_in"}', "an unknown action name"),
        (b'{"action": 6}', "action 6, which is not legal now"),
        (b'{"move": 1}', 'without an "action"'),
        (b'{"type": "ready"}', "sent a 'ready' message where an action was due"),
        (b"1", "a JSON int, not an object"),
        (b"\xff\xfe", "malformed JSON"),
    ],
)
def test_a_bad_answer_is_refused(line: bytes, message: str) -> None:
    view = _stud_view()
    with pytest.raises(protocol.ProtocolError, match=message.replace("(", r"\(")):
        protocol.parse_action(line, view, envs.make_raw("stud", 3).action_names)


def test_messages_are_one_line_of_json_without_nan() -> None:
    line = protocol.encode(protocol.end_match_message(reason="done", hands=3, total=0.5))
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    assert json.loads(line)["type"] == "end_match"
    with pytest.raises(ValueError):
        protocol.encode({"type": "x", "value": float("nan")})


def test_a_bot_gets_each_seats_history_once_and_in_order(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Through the dealer, with the bot in two seats of some hands (two bots at three
    seats): every message's ``events_from`` is exactly what the bot has of that seat's
    hand, a new hand starts again at 0, and ``hand`` comes before its decisions."""
    from evaluation.arena import run_match
    from tests.protocol.conftest import BAD_BOT, python_bot

    path = tmp_path / "lines.jsonl"
    result = run_match("cowpie", [python_bot(BAD_BOT, "record", str(path)), "call"], deals=3, num_players=3, seed=8)
    assert result.forfeit is None
    messages = [json.loads(line) for line in path.read_text().splitlines()]
    assert [m["type"] for m in messages[:2]] == ["hello", "hand"] and messages[-1]["type"] == "end_match"
    kept: dict[tuple[int, int], int] = {}
    seats: list[int] = []
    ends = 0
    for m in messages:
        if m["type"] == "hand":
            seats = m["seats"]
        elif m["type"] in ("act", "end_hand"):
            assert m["seat"] in seats
            key = (m["hand"], m["seat"])
            assert m["view"]["events_from"] == kept.get(key, 0)
            kept[key] = m["view"]["events_from"] + len(m["view"]["events"])
            ends += m["type"] == "end_hand"
    assert ends == sum(sum(1 for b in h.lineup if b == 0) for h in result.hands)
    assert messages[-1]["hands"] == len(result.hands) == 18
