"""The browser's tables seat a shipped agent at the table it was trained for when the
request names no options, and say so; conflicting options are refused with the fix."""

from __future__ import annotations

from tests.web.conftest import Client


def test_watch_seats_the_cowboy_agent_at_its_table(client: Client) -> None:
    table = client.ok("POST", "watch", {"variant": "cowboy", "bots": ["pretrained:cowboy", "heuristic"], "seed": 1})
    assert "--option match_cap=8 --option max_deals=20" in table["session"]["note"]
    hand = client.ok("POST", f"watch/{table['table']}/next")
    assert sum(hand["hand"]["payoffs"]) == 0 and "note" in hand["session"]


def test_conflicting_options_are_refused_with_the_fix(client: Client) -> None:
    body = {"variant": "cowboy", "bots": ["pretrained:cowboy", "call"], "options": {"match_cap": 4}}
    status, data = client.call("POST", "watch", body)
    assert status == 400 and "match_cap=4 (trained: 8)" in str(data) and "strict_options" not in str(data)
