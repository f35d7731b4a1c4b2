"""Dealer's choice in evaluation and play: the dealer's choices counted per game (event
logs and action masks), evaluate.py and play.py take the table like any variant, and
a person on the button names the game."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import numpy as np
import pytest

import evaluation
import evaluation.head_to_head as evaluate
import evaluation.play as play
from envs.registry import make_raw
from evaluation.cli import parse_options
from evaluation.mix import choice_actions, choice_frequencies, choice_rows, decision_mix, summarize, total


def test_decision_mix_counts_the_dealers_choices_per_game() -> None:
    env = make_raw("dealers_choice", 3, games=("razz", "stud", "chowaha"))
    mixes = []
    for hand, game in enumerate(["razz", "razz", "chowaha"]):
        env.reset(seed=hand, options={"button": 1})
        env.step(env.action_names.index(f"choose_{game}"))
        while not env.state.is_over:
            env.step(env.state.legal_actions()[0])
        mixes.append(decision_mix(env.state))
    button = total(m[1] for m in mixes)
    assert (button["choices"], button["choose_razz"], button["choose_chowaha"]) == (3, 2, 1)
    assert total(m[0] for m in mixes)["choices"] == 0
    rates = summarize(button)
    assert rates["choose_razz"] == pytest.approx(2 / 3) and rates["choose_chowaha"] == pytest.approx(1 / 3)
    assert "choose_razz" not in summarize(total(m[0] for m in mixes))  # no choices: no rate


def test_a_rotation_is_no_decision_and_counts_no_choice() -> None:
    env = make_raw("dealers_choice", 2, choice="rotate")
    env.reset(seed=0)
    while not env.state.is_over:
        env.step(env.state.legal_actions()[0])
    assert all(m["choices"] == 0 for m in decision_mix(env.state))


def test_choices_read_from_action_masks_for_trainers() -> None:
    """A trainer has masks and actions, not events: the choose_<game> columns tell a
    choice from every other decision, and the shares per game."""
    env = make_raw("dealers_choice", 2, games=("razz", "stud", "chowaha"))
    names = env.action_names
    assert choice_actions(names) == {61: "razz", 62: "stud", 63: "chowaha"}
    masks, actions = [], []
    for hand, game in enumerate(["stud", "stud", "chowaha", "stud"]):
        env.reset(seed=hand)
        while not env.state.is_over:
            mask = env.observe(env.agent_selection)["action_mask"]
            action = names.index(f"choose_{game}") if mask[61:].any() else env.state.legal_actions()[0]
            masks.append(mask)
            actions.append(action)
            env.step(action)
    m, a = np.array(masks), np.array(actions)
    rows = choice_rows(m, names)
    assert rows.sum() == 4 and rows[0] and not rows[1]
    assert choice_frequencies(m, a, names) == {"choose_razz": 0.0, "choose_stud": 0.75, "choose_chowaha": 0.25}
    stud = make_raw("stud", 2)
    assert choice_actions(stud.action_names) == {}
    assert choice_frequencies(m[:, :7], a, stud.action_names) == {}
    assert not choice_rows(m[:, :7], stud.action_names).any()


def test_the_arena_plays_every_seating_of_a_deal_as_one_hand_of_the_rotation() -> None:
    """Duplicate play replays a deal with the bots moved round; under a rotation of
    games each replay must deal the same game (the deal's number is the hand's)."""
    result = evaluation.run_match(
        "dealers_choice",
        ["random", "call"],
        deals=4,
        seed=2,
        options={"choice": "rotate", "hands_per_game": 1, "games": ("razz", "chowaha")},
        keep_histories=True,
    )
    games = {(h.deal, h.history.playing.name) for h in result.hands}
    assert games == {(0, "razz"), (1, "chowaha"), (2, "razz"), (3, "chowaha")}
    again = evaluation.run_match(
        "dealers_choice",
        ["random", "call"],
        deals=4,
        seed=2,
        options={"choice": "rotate", "hands_per_game": 1, "games": ("razz", "chowaha")},
        deal_range=range(2, 4),
    )
    assert [h.rewards for h in again.hands] == [h.rewards for h in result.hands if h.deal >= 2]


def test_options_with_dots_fill_the_tables_dicts() -> None:
    options = parse_options(["stakes.small_bet=4", "stakes.big_bet=8", "game_options.chowaha.betting=no_limit"])
    assert options == {"stakes": {"small_bet": 4, "big_bet": 8}, "game_options": {"chowaha": {"betting": "no_limit"}}}
    env = make_raw("dealers_choice", 2, **options)
    assert env.game.unit == 8 and "all_in" in env.action_names
    with pytest.raises(ValueError, match="stakes was given a value, so it cannot hold ante"):
        parse_options(["stakes=2", "stakes.ante=1"])
    with pytest.raises(ValueError, match="expected key=value"):
        parse_options(["stakes.=1"])


def test_evaluate_py_reports_the_games_each_bot_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["dealers_choice", "heuristic", "random", "-n", "8", "--seed", "1", "-w", "1", "--out", str(tmp_path)]
    report = evaluate.main([*argv, "-o", "stakes.ante=1", "-o", "games=razz,stud,chowaha"])
    out = capsys.readouterr().out
    assert report["rate_label"] == "big bets per 100 hands" and report["options"]["stakes"] == {"ante": 1}
    assert "Games named on the button (dealer's choice):" in out
    for bot in json.loads((tmp_path / "report.json").read_text())["bots_summary"]:
        shares = {k: v for k, v in bot["mix"].items() if k.startswith("choose_")}
        assert set(shares) <= {"choose_razz", "choose_stud", "choose_chowaha"}
        assert sum(shares.values()) == pytest.approx(1.0)
        assert f"  {bot['name']}: " in out


def _play(argv: list[str], lines: list[str]) -> tuple[list[float], str]:
    out = io.StringIO()
    results = play.main(argv, stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    return results, out.getvalue()


def test_play_py_asks_the_person_on_the_button_which_game_to_deal() -> None:
    answers = ["stud hilo", *itertools.islice(itertools.cycle(["call", "check", "1"]), 400)]
    results, out = _play(["dealers_choice", "--seed", "3", "--hands", "2", "--bots", "random"], answers)
    assert len(results) == 2
    first = out[: out.index("*** HAND HISTORY")]
    assert "--- Dealer's choice, 2 players | dealer's choice |" in first
    for game in ("1. deal Seven-card stud   (choose_stud)", "2. deal Razz   (choose_razz)", "(choose_chowaha)"):
        assert game in first
    assert "player_0 (dealer) chooses Seven-card stud high-low eight-or-better" in first
    assert "--- Dealer's choice: Seven-card stud high-low eight-or-better, 2 players | third street |" in first
    second = out[out.index("*** HAND HISTORY") :]
    assert "player_1 (dealer) chooses" in second  # the bot on the button chose the second game


@pytest.mark.parametrize("answer", ["razz", "2", "choose_razz", "deal razz"])
def test_a_game_may_be_named_by_number_name_or_words(answer: str) -> None:
    _, out = _play(["dealers_choice", "--seed", "1", "--hands", "1"], [answer, "q"])
    assert "player_0 (dealer) chooses Razz" in out


def test_an_unknown_game_is_asked_again() -> None:
    argv = ["dealers_choice", "--seed", "1", "--hands", "1", "-o", "games=razz,chowaha"]
    _, out = _play(argv, ["holdem", "stud", "q"])
    assert "'holdem' is not a legal action here" in out and "'stud' is not a legal action here" in out
    assert "chooses" not in out
