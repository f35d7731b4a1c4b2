"""The web API without a browser: replay, watch, play and reports for every variant,
and every refusal (a 4xx with a message, no state changed, nothing written)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envs.engine.cards import format_card
from envs.engine.history import HandRecord
from envs.registry import ENV_SPECS
from envs.variants import replay
from evaluation.web.server import Server
from tests.web.conftest import CHEAP_OPTIONS, Client, tree

VARIANTS = list(ENV_SPECS)


def open_file(client: Client, name: str) -> dict:
    return client.ok("POST", "open", {"path": name})


# ------------------------------------------------------------------ replay
@pytest.mark.parametrize("variant", VARIANTS)
def test_replay_frames_follow_the_record(client: Client, web_root: Path, variant: str) -> None:
    """Every frame of every variant: the cards each seat holds and the pot are the
    engine's, state by state, and the last frame's payoffs are the record's."""
    record = HandRecord.from_json((web_root / f"{variant}.json").read_text())
    expected = []
    final = replay(record, on_decision=lambda st: expected.append(st.clone()))
    expected.append(final)
    opened = open_file(client, f"{variant}.json")
    assert opened["count"] == 1
    data = client.ok("GET", f"hand/{opened['collection']}/0?viewer=all")
    assert len(data["frames"]) == len(record.decisions) + 1
    for frame, st in zip(data["frames"], expected, strict=True):
        assert frame["pot"] == st.pot()
        for seat in frame["seats"]:
            assert [c["card"] for c in seat["cards"]] == [format_card(c) for c in st.cards[seat["seat"]]]
            assert [c["up"] for c in seat["cards"]] == list(st.up[seat["seat"]])
        assert frame["community"] == [format_card(c) for c in st.community]
    assert [s["payoff"] for s in data["frames"][-1]["seats"]] == record.payoffs
    assert data["streets"][0]["frame"] == 0 and data["streets"][-1]["label"] == "hand over"


def test_a_seats_view_hides_the_others_down_cards(client: Client) -> None:
    opened = open_file(client, "stud.json")
    mine = client.ok("GET", f"hand/{opened['collection']}/0?viewer=1")["frames"][0]
    public = client.ok("GET", f"hand/{opened['collection']}/0?viewer=public")["frames"][0]
    for seat in mine["seats"]:
        for card in seat["cards"]:
            assert (card["card"] is not None) == (card["up"] or seat["seat"] == 1)
    assert all(c["card"] is None for s in public["seats"] for c in s["cards"] if not c["up"])
    lines = [
        line
        for k, line in client.ok("GET", f"hand/{opened['collection']}/0?viewer=1")["history"]
        if k <= mine["events"]
    ]
    assert mine["viewer"] == 1 and any(line.startswith("Dealt to player_0: [?? ??]") for line in lines)
    status, err = client.call("GET", f"hand/{opened['collection']}/0?viewer=7")
    assert status == 400 and "viewer" in err["error"]


def test_hands_jsonl_lists_and_filters(client: Client) -> None:
    opened = open_file(client, "eval_stud/hands.jsonl")
    key = opened["collection"]
    every = client.ok("GET", f"collection/{key}")
    assert every["total"] == opened["count"] == len(every["hands"]) > 0
    assert {"call", "random", "heuristic"} >= set(every["hands"][0]["names"])
    shown = client.ok("GET", f"collection/{key}?showdown=yes")["hands"]
    folded = client.ok("GET", f"collection/{key}?showdown=no")["hands"]
    assert len(shown) + len(folded) == every["total"] and all(h["showdown"] for h in shown)
    won = client.ok("GET", f"collection/{key}?result=won&seat=heuristic")["hands"]
    for row in won:
        assert row["payoffs"][row["names"].index("heuristic")] > 0
    lost = client.ok("GET", f"collection/{key}?result=lost&seat=0")["hands"]
    assert all(row["payoffs"][0] < 0 for row in lost) and lost
    assert client.call("GET", f"collection/{key}?result=maybe")[0] == 400


def test_phh_file_and_downloads(client: Client, web_root: Path) -> None:
    opened = open_file(client, "stud.phh")
    status, headers, body = client.raw("GET", f"/api/hand/{opened['collection']}/0/record?format=phh")
    assert status == 200 and "attachment" in headers["Content-Disposition"]
    assert 'variant = "F7S"' in body.decode()
    status, _, body = client.raw("GET", f"/api/hand/{opened['collection']}/0/record?format=json")
    assert replay(HandRecord.from_json(body.decode())).payoffs() is not None
    chowaha = open_file(client, "chowaha.json")
    status, err = client.call("GET", f"hand/{chowaha['collection']}/0/record?format=phh")
    assert status == 400 and "PHH" in err["error"]
    status, headers, body = client.raw("GET", f"/api/hand/{chowaha['collection']}/0/png/0?viewer=all")
    assert status == 200 and headers["Content-Type"] == "image/png" and body[:8] == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ watch
def test_watch_shows_a_network_bots_probabilities(client: Client) -> None:
    table = client.ok("POST", "watch", {"variant": "stud", "bots": ["pretrained:stud", "random"], "seed": 5})
    hand = client.ok("POST", f"watch/{table['table']}/next")
    assert hand["index"] == 0 and hand["session"]["hands"] == 1
    frames = client.ok("GET", f"hand/{table['table']}/0?viewer=all")["frames"]
    thoughts = [f["insight"] for f in frames if f["insight"] and f["insight"]["bot"] == "stud"]
    assert thoughts, "the network bot decided nothing"
    for thought in thoughts:
        assert abs(sum(p["p"] for p in thought["probabilities"]) - 1) < 1e-6
        assert "value" in thought or "value_note" in thought
    seat1 = client.ok("GET", f"hand/{table['table']}/0?viewer=1")["frames"]
    assert all(f["insight"] is None or f["insight"]["seat"] == 1 for f in seat1)  # thoughts are secret


@pytest.mark.parametrize("variant", VARIANTS)
def test_watch_every_variant(client: Client, variant: str) -> None:
    body = {"variant": variant, "bots": ["heuristic", "call"], "seed": 2, "options": CHEAP_OPTIONS.get(variant, {})}
    table = client.ok("POST", "watch", body)
    hand = client.ok("POST", f"watch/{table['table']}/next")["hand"]
    assert hand["variant"] == ENV_SPECS[variant].variant and sum(hand["payoffs"]) == 0
    _status, _, body = client.raw("GET", f"/api/history/{table['table']}?format=jsonl")
    record = HandRecord.from_json(body.decode().splitlines()[0])
    assert replay(record).payoffs() == hand["payoffs"]


# ------------------------------------------------------------------ play
def finish_hand(client: Client, status: dict, table: str, *, fold: bool = False) -> dict:
    """Clicks through a hand the way the page does: a legal action at each turn (not
    a fold where there is another choice, unless ``fold``: a Cowboy game where
    everyone stays every deal goes on for hundreds of deals)."""
    turn = 0
    while not status["frame"]["over"]:
        legal = [o for o in status["legal"] if o["name"] != "fold" or fold] or status["legal"]
        assert legal, "the person is asked to act with no legal action"
        status = client.ok("POST", f"play/{table}/act", {"action": legal[turn % len(legal)]["action"]})
        turn += 1
    return status


@pytest.mark.parametrize("variant", VARIANTS)
def test_play_every_variant_to_the_end(client: Client, variant: str) -> None:
    body = {"variant": variant, "bots": ["call"], "seed": 4, "seat": 0, "options": CHEAP_OPTIONS.get(variant, {})}
    start = client.ok("POST", "play", body)
    status = finish_hand(client, start, start["table"], fold=variant in CHEAP_OPTIONS)
    status, _, text = client.raw("GET", f"/api/history/{start['table']}?format=jsonl")
    final = replay(HandRecord.from_json(text.decode().splitlines()[0]))
    done = client.ok("GET", f"play/{start['table']}")
    assert done["result"] == final.rewards()[0]
    assert done["session"]["hands"] == 1 and done["session"]["seats"][0]["total"] == final.rewards()[0]
    status, _, history = client.raw("GET", f"/api/history/{start['table']}?format=text")
    assert status == 200 and "SUMMARY" in history.decode()


def test_play_session_interval_and_choices(client: Client) -> None:
    """Dealer's choice: the person on the button is offered exactly the games; the
    session's interval appears from the second hand on."""
    start = client.ok("POST", "play", {"variant": "dealers_choice", "bots": ["call"], "seed": 1, "seat": 0})
    names = [o["name"] for o in start["legal"]]
    assert names and all(n.startswith("choose_") for n in names)
    status = finish_hand(client, start, start["table"])
    assert status["session"]["seats"][0]["half_width"] is None
    status = finish_hand(client, client.ok("POST", f"play/{start['table']}/deal"), start["table"])
    assert status["session"]["hands"] == 2 and status["session"]["seats"][0]["half_width"] is not None


def test_illegal_actions_change_nothing(client: Client) -> None:
    start = client.ok("POST", "play", {"variant": "stud", "bots": ["call"], "seed": 9, "seat": 1})
    table = start["table"]
    before = client.ok("GET", f"play/{table}")
    if not before["legal"]:
        pytest.fail("seat 1 should act on third street against a calling station")
    legal = {o["action"] for o in before["legal"]}
    for bad in [max(legal) + 50, -1, True, "1", 1.0, None, [1]]:
        status, err = client.call("POST", f"play/{table}/act", {"action": bad})
        assert status == 409 and "not legal" in err["error"], (bad, err)
    assert client.call("POST", f"play/{table}/act", {})[0] == 400
    assert client.ok("GET", f"play/{table}") == before
    status, err = client.call("POST", f"play/{table}/deal")
    assert status == 409 and "not over" in err["error"]


# ------------------------------------------------------------------ reports
def test_report_folder(client: Client, web_root: Path) -> None:
    data = client.ok("GET", "report?path=eval_stud")
    report = data["report"]
    assert report["mode"] == "tournament" and len(report["matrix"]["mean"]) == 3
    assert {b["name"] for b in report["bots_summary"]} == {"call", "random", "heuristic"}
    assert "Elo" in data["table"] and set(data["files"]) >= {"report.png", "hands.jsonl"}
    status, _headers, body = client.raw("GET", "/api/image?path=" + data["files"]["report.png"])
    assert status == 200 and body[:4] == b"\x89PNG"
    assert client.call("GET", "report?path=not_a_report")[0] == 404
    assert client.call("GET", "image?path=eval_stud/report.json")[0] == 400


# ------------------------------------------------------------------ refusals
BAD_FILES = [
    ("bad.json", "{not json", "not JSON"),
    ("bad.jsonl", '{"record": {"variant": "stud"}}\n{oops\n', "line 1"),
    ("unknown.json", None, "variant"),
    ("empty.json", "   ", "empty"),
    ("list.json", "[1, 2]", "record"),
    ("bad.phh", 'variant = "FR"\nantes = 1\n', "hand.phh"),
]


@pytest.mark.parametrize(("name", "text", "words"), BAD_FILES, ids=[b[0] for b in BAD_FILES])
def test_malformed_uploads_are_refused(
    client: Client, server: Server, web_root: Path, name: str, text: str | None, words: str
) -> None:
    if text is None:
        data = json.loads((web_root / "stud.json").read_text())
        text = json.dumps({**data, "variant": "holdem"})
    before = len(server.app.store)
    status, err = client.call("POST", "upload", {"name": name, "text": text})
    assert 400 <= status < 500 and words.split(".")[0] in err["error"], err
    assert len(server.app.store) == before


def test_a_tampered_record_is_named(client: Client, web_root: Path) -> None:
    data = json.loads((web_root / "razz.json").read_text())
    data["payoffs"] = [p + (1 if s == 0 else -1 if s == 1 else 0) for s, p in enumerate(data["payoffs"])]
    status, err = client.call("POST", "upload", {"name": "razz.json", "text": json.dumps(data)})
    assert status == 400 and "payoff" in err["error"]


def test_requests_are_checked(client: Client) -> None:
    cases = [
        ("POST", "watch", {"variant": "holdem", "bots": ["call"]}, 400, "unknown variant"),
        ("POST", "watch", {"variant": "stud", "bots": []}, 400, "bots"),
        ("POST", "watch", {"variant": "stud", "bots": ["os:system"]}, 400, "not allowed"),
        ("POST", "watch", {"variant": "stud", "bots": ["/etc/passwd.pt"]}, 403, "outside"),
        ("POST", "watch", {"variant": "stud", "bots": ["call"], "options": {"ante": "lots"}}, 400, "ante"),
        ("POST", "watch", {"variant": "stud", "bots": ["call"], "players": 99}, 400, "players"),
        ("POST", "watch", {"variant": "razz", "bots": ["call"], "players": 12}, 400, "players"),
        ("POST", "play", {"variant": "stud", "bots": ["call"], "seat": 5}, 400, "seat"),
        ("POST", "open", {"path": "/etc/passwd"}, 403, "outside"),
        ("POST", "open", {"path": "../../../../etc/passwd"}, 403, "outside"),
        ("POST", "open", {"path": "link_out/secret.json"}, 403, "outside"),
        ("POST", "open", {"path": "nothing.json"}, 404, "does not exist"),
        ("POST", "open", {"path": 5}, 400, "path"),
        ("GET", "files?path=..", None, 403, "outside"),
        ("GET", "collection/0123456789abcdef", None, 404, "no such"),
        ("POST", "play/0123456789abcdef/act", {"action": 1}, 404, "no such"),
        ("GET", "nothing", None, 404, "no API route"),
    ]
    for method, path, body, code, words in cases:
        status, err = client.call(method, path, body)
        assert status == code and words in err["error"], (path, body, status, err)
    misfit = client.ok("POST", "watch", {"variant": "razz", "bots": ["pretrained:stud", "call"]})
    status, err = client.call("POST", f"watch/{misfit['table']}/next")
    assert status == 409 and "trained for" in err["error"]  # a stud network refuses a razz table
    assert client.ok("GET", f"collection/{misfit['table']}")["total"] == 0  # the void hand is not kept
    status, _, body = client.raw("POST", "/api/open", b"{not json")
    assert status == 400 and b"bad JSON" in body
    status, _, body = client.raw("POST", "/api/open", b'{"path": "stud.json"}', content_type="text/plain")
    assert status == 415  # a form on another site cannot send JSON without asking first
    big = json.dumps({"name": "big.json", "text": "x" * (3 * 2**20)}).encode()
    status, _, body = client.raw("POST", "/api/upload", big)
    assert status == 413 and b"at most" in body
    assert client.ok("GET", "info")["variants"]  # still serving


def test_nothing_is_written(client: Client, web_root: Path) -> None:
    before = tree(web_root)
    open_file(client, "eval_stud/hands.jsonl")
    client.call("POST", "upload", {"name": "stud.json", "text": "{}"})
    client.ok("GET", "report?path=eval_stud")
    table = client.ok("POST", "play", {"variant": "razz", "bots": ["call"], "seed": 1})
    finish_hand(client, table, table["table"])
    assert tree(web_root) == before


def test_static_page_and_headers(client: Client) -> None:
    status, headers, body = client.raw("GET", "/")
    assert status == 200 and b"<title>Dealer's Choice table</title>" in body
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    for name in ("app.js", "table.js", "viewer.js", "style.css"):
        assert client.raw("GET", f"/static/{name}")[0] == 200
    assert client.raw("GET", "/static/server.py")[0] == 404
    assert client.raw("GET", "/static/..%2fserver.py")[0] == 404
    assert b"http" not in b"".join(
        line for line in client.raw("GET", "/")[2].splitlines() if b"src=" in line or b"href=" in line
    )


def test_a_checkpoint_inside_the_roots_plays(client: Client, web_root: Path) -> None:
    from agents.loading import pretrained_path

    target = web_root / "checkpoints" / "stud_copy.pt"
    target.parent.mkdir(exist_ok=True)
    target.write_bytes(pretrained_path("stud").read_bytes())
    table = client.ok("POST", "watch", {"variant": "stud", "bots": ["checkpoints/stud_copy.pt", "call"], "seed": 1})
    assert table["names"][0] == "stud_copy.pt"
    client.ok("POST", f"watch/{table['table']}/next")
    frames = client.ok("GET", f"hand/{table['table']}/0?viewer=0")["frames"]
    assert any(f["insight"] and f["insight"]["probabilities"] for f in frames)


def test_a_value_head_is_shown() -> None:
    """A network saved with its value head: its estimate at the decision, in the
    network's own (reward-scaled) units."""
    import numpy as np
    import torch

    from agents.loading import load
    from agents.nets import PolicyNet
    from agents.neural import NeuralAgent
    from envs.registry import make_raw
    from evaluation.web.tables import insight

    shipped = load("pretrained:stud")
    torch.manual_seed(0)
    agent = NeuralAgent(PolicyNet.from_arch({**shipped.net.arch(), "value": True}), shipped.layout)
    env = make_raw("stud", 2)
    env.reset(seed=3)
    agent_name = env.possible_agents[env.state.current_seat]
    observation, view = env.observe(agent_name), env.public_view(agent_name)
    thought = insight(agent, env.state.current_seat, "net", observation, view, env.state)
    with torch.inference_mode():
        expected = float(agent.net.values(torch.from_numpy(observation["observation"][None].astype(np.float32)))[0])
    assert thought["value"] == pytest.approx(expected)
    assert [p["action"] for p in thought["probabilities"]] == env.state.legal_actions()


def test_a_rebound_host_name_is_refused(client: Client) -> None:
    """DNS rebinding: a page elsewhere whose name now points at 127.0.0.1 sends its own Host."""
    import http.client
    from urllib.parse import urlsplit

    url = urlsplit(client.url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    connection.request("GET", "/api/info", headers={"Host": "evil.example:8765"})
    response = connection.getresponse()
    assert response.status == 421 and b"127.0.0.1" in response.read()
    connection.close()
    assert client.ok("GET", "info")["max_upload"] == 2 * 2**20


def test_old_hands_of_a_long_table_replay_from_their_records() -> None:
    from agents.loading import load
    from evaluation.web.tables import KEEP_STEPS, Table, TableConfig

    table = Table(TableConfig("toy_stud", ("random",), seed=1), lambda spec, seed: load(spec, seed=seed))
    for _ in range(KEEP_STEPS + 2):
        table.watch_hand()
    first = table.hands[0]
    assert first.states is None and first.insight is not None
    frames = first.frames(None)["frames"]  # replayed from the record: the same steps, the bot's thoughts kept
    assert len(frames) == len(first.insight) and frames[-1]["over"]
    assert any(f["insight"] for f in frames)


@pytest.mark.parametrize("variant", VARIANTS)
def test_history_lines_give_each_moments_history(web_root: Path, variant: str) -> None:
    """The page shows a step's history as the final history's lines needing at most
    that step's events: exactly what hand_history prints at that step, for every viewer."""
    from envs.engine.history import hand_history, history_lines

    record = HandRecord.from_json((web_root / f"{variant}.json").read_text())
    states = []
    final = replay(record, on_decision=lambda st: states.append(st.clone()))
    for viewer in (None, 0, 1):
        lines = history_lines(final, viewer)
        for st in [*states, final]:
            shown = [line for k, line in lines if k <= len(st.events)]
            assert shown == hand_history(st, viewer).splitlines(), (viewer, len(st.events))
