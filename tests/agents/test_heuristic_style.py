"""``HeuristicStyle``: validation, spec parsing, ``agents.load`` specs, and that the
presets play differently (measured on the same views with the same equities)."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

import agents
from agents.heuristic import PRESETS, HeuristicAgent, HeuristicStyle, parse_style
from agents.heuristic.style import DEFAULT_STYLE, KNOBS
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE, STAY
from envs.view import PublicView
from tests.agents.test_heuristic_batch import random_views


# ---------------------------------------------------------------- the knobs
def test_the_default_style_is_the_documented_heuristic() -> None:
    assert dataclasses.asdict(DEFAULT_STYLE) == {
        "raise_edge": 0.25,
        "strong_edge": 0.5,
        "call_margin": 0.0,
        "implied_bets": 1.0,
        "max_raises": 6,
        "nuts": 0.9,
        "bluff": 0.0,
        "both_at": 0.5,
        "stay_guess": 0.5,
        "stay_margin": 0.0,
    }
    assert PRESETS["default"] is DEFAULT_STYLE
    assert HeuristicAgent().style == DEFAULT_STYLE and HeuristicAgent().name == "heuristic"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"raise_edge": 1.5}, r"raise_edge=1.5 is not allowed: expected a number in \[0.0, 1.0\]"),
        ({"call_margin": float("nan")}, r"call_margin=nan is not allowed"),
        ({"bluff": "0.1"}, r"bluff='0.1' is not allowed: expected a number"),
        ({"nuts": True}, r"nuts=True is not allowed"),
        ({"max_raises": 0}, r"max_raises=0 is not allowed: expected an int in 1..100"),
        ({"max_raises": 2.5}, r"max_raises=2.5 is not allowed"),
        ({"stay_margin": -2}, r"stay_margin=-2 is not allowed: expected a number in \[-1.0, 1.0\]"),
        ({"raise_edge": 0.6}, r"strong_edge=0.5 is not allowed: expected at least raise_edge=0.6"),
    ],
)
def test_bad_knobs_are_named_with_what_is_allowed(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        HeuristicStyle(**kwargs)  # type: ignore[arg-type]


def test_styles_are_frozen_keyword_dataclasses() -> None:
    with pytest.raises(TypeError):
        HeuristicStyle(0.3)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_STYLE.bluff = 0.5  # type: ignore[misc]


# ------------------------------------------------------------------ parsing
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", DEFAULT_STYLE),
        ("default", DEFAULT_STYLE),
        ("tight", PRESETS["tight"]),
        ("raise_edge=0.1,call_margin=0.0", HeuristicStyle(raise_edge=0.1)),
        (" loose , bluff = 0.05 ", dataclasses.replace(PRESETS["loose"], bluff=0.05)),
        ("max_raises=3", HeuristicStyle(max_raises=3)),
    ],
)
def test_parse_style(text: str, expected: HeuristicStyle) -> None:
    assert parse_style(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("raise_edg=0.1", "unknown heuristic knob 'raise_edg' in 'raise_edg=0.1'; valid knobs: raise_edge, strong"),
        ("bluff=lots", "heuristic knob bluff='lots' is not a number"),
        ("max_raises=2.5", "heuristic knob max_raises='2.5' is not an int"),
        ("wild", "'wild' in heuristic style 'wild' is neither a preset \\(default, tight, loose, aggressive\\)"),
        ("bluff=0.1,tight", "'tight' in heuristic style 'bluff=0.1,tight' is not knob=value"),
        ("bluff=0.1,bluff=0.2", "heuristic knob 'bluff' is given twice"),
        ("bluff=2", "bluff=2.0 is not allowed"),
    ],
)
def test_bad_specs_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_style(text)


def test_quoted_input_is_truncated() -> None:
    with pytest.raises(ValueError) as err:
        parse_style("x" * 5000 + "=1")
    assert len(str(err.value)) < 600 and "..." in str(err.value)


def test_labels_name_presets_and_changed_knobs() -> None:
    assert [s.label for s in PRESETS.values()] == list(PRESETS)
    assert HeuristicStyle(raise_edge=0.1, bluff=0.2).label == "raise_edge=0.1,bluff=0.2"
    for style in [*PRESETS.values(), HeuristicStyle(nuts=0.8, max_raises=4)]:
        assert parse_style(style.label) == style  # a label is a spec of the same style


def test_every_knob_is_documented() -> None:
    doc = HeuristicStyle.__doc__ or ""
    assert all(f"{knob}:" in doc or f"{knob}," in doc for knob in KNOBS)


# ---------------------------------------------------------------- bot specs
def test_load_builds_styled_heuristics() -> None:
    tight = agents.load("heuristic:tight", seed=3)
    assert isinstance(tight, HeuristicAgent) and tight.style == PRESETS["tight"]
    assert tight.name == "heuristic:tight" and repr(tight) == "HeuristicAgent(samples=256, style='tight')"
    custom = agents.load("heuristic:raise_edge=0.1,call_margin=0.0", seed=3)
    assert custom.style == HeuristicStyle(raise_edge=0.1) and custom.name == "heuristic:raise_edge=0.1"
    assert agents.load("heuristic:default").style == DEFAULT_STYLE
    assert HeuristicAgent(style="aggressive").style == PRESETS["aggressive"]
    with pytest.raises(ValueError, match=r"unknown heuristic knob 'raise_edg'.*valid knobs: raise_edge"):
        agents.load("heuristic:raise_edg=0.1")
    with pytest.raises(ValueError, match="style must be a HeuristicStyle or a style spec string, got int"):
        HeuristicAgent(style=3)  # type: ignore[arg-type]


# ------------------------------------------------------- the presets differ
def decisions(views: list[PublicView], style: str) -> Counter[str]:
    """What a bot of this style does on each view, every view with a fresh bot of the
    same seed: the Monte Carlo numbers, hence the equities, are the same for every
    style, so only the knobs differ."""
    counts: Counter[str] = Counter()
    for i, view in enumerate(views):
        action = HeuristicAgent(seed=i, style=style).act({}, view)
        name = view.legal_names[view.legal_actions.index(action)]
        counts["raise" if action == RAISE or name.startswith(("bet_", "all_in")) else name] += 1
    return counts


@pytest.mark.parametrize("variant", ["stud", "chowaha"])
def test_presets_fold_call_and_raise_differently(variant: str) -> None:
    views = [v for v in random_views(variant, seed=21, per_table=8) if FOLD in v.legal_actions]
    plays = {style: decisions(views, style) for style in ("tight", "default", "loose", "aggressive")}
    assert plays["loose"]["fold"] < plays["default"]["fold"] < plays["tight"]["fold"], plays
    assert plays["tight"]["raise"] < plays["default"]["raise"] < plays["aggressive"]["raise"], plays


def test_cowboy_presets_stay_differently() -> None:
    views = [v for v in random_views("cowboy", seed=22, per_table=10) if STAY in v.legal_actions]
    stays = {style: decisions(views, style)["stay"] for style in ("tight", "default", "loose")}
    assert stays["tight"] < stays["default"] < stays["loose"], stays


def test_a_bluffing_style_bets_whenever_it_may() -> None:
    views = [v for v in random_views("razz", seed=23, per_table=8) if RAISE in v.legal_actions]
    always = HeuristicAgent(seed=0, style="bluff=1,max_raises=100")  # no raising-war stop
    assert all(always.act({}, v) == RAISE for v in views)
    passive = [HeuristicAgent(seed=0).act({}, v) for v in views]
    assert {CHECK_CALL, FOLD, BRING_IN} & set(passive)  # the same views are not all raises by default


def test_only_a_bluffing_style_draws_the_bluff_coin() -> None:
    views = random_views("stud", seed=24, per_table=2)
    states = {}
    for style in ("default", "tight", "loose", "aggressive"):
        bot = HeuristicAgent(seed=5, style=style)
        bot.act_batch([{}] * len(views), views)
        states[style] = bot.rng.bit_generator.state["state"]["state"]
    assert states["default"] == states["tight"] == states["loose"] != states["aggressive"]
