"""The batched random and calling bots against their scalar forms, in lockstep with
the scalar engine (the same decks and buttons at every table)."""

from __future__ import annotations

import pytest
import torch

import envs
from agents.base import CallingStation
from agents.batched import BatchedBot, BatchedCall, BatchedRandom, NoBatchedBotError, load_batched
from envs.batched import make
from envs.engine.actions import BRING_IN, CHECK_CALL, FOLD, RAISE


def _scalars(batch, name: str, players: int) -> list:
    out = []
    for i in range(batch.num_tables):
        env = envs.make_raw(name, players)
        env.reset(options={"deck": batch.state.deck[i].tolist(), "button": int(batch.state.button[i])})
        out.append(env)
    return out


@pytest.mark.parametrize(("name", "players"), [("stud", 2), ("stud_hilo_declare", 3), ("cowpie", 2)])
def test_call_bot_plays_the_calling_station(name: str, players: int) -> None:
    """Every forced choice (check/call, else bring-in) is the scalar bot's; the
    others (declarations, splits) are never fold or raise and stay legal."""
    batch = make(name, 32, players, auto_reset=False)
    batch.reset(seed=3)
    scalars = _scalars(batch, name, players)
    bot, station = BatchedCall(seed=1), CallingStation()
    all_rows = torch.ones(batch.num_tables, dtype=torch.bool)
    free_choices = 0
    for _ in range(200):
        live = ~batch.state.done
        if not live.any():
            break
        mask = batch.legal_mask()
        actions = bot.act(batch, all_rows)
        for i in torch.nonzero(live).flatten().tolist():
            env = scalars[i]
            seat = env.state.current_seat
            obs = env.observe(env.possible_agents[seat])
            assert mask[i].numpy().tolist() == obs["action_mask"].astype(bool).tolist()
            action = int(actions[i])
            assert mask[i, action], (i, action)
            if mask[i, CHECK_CALL] or mask[i, BRING_IN]:
                assert action == station.act(obs, env.public_view(env.possible_agents[seat]))
            else:
                free_choices += 1
                assert action not in (FOLD, RAISE)
            env.step(action)
        batch.step(torch.where(live, actions, torch.zeros_like(actions)), active=live)
    assert batch.state.done.all()
    for i, env in enumerate(scalars):
        assert env.state.is_over
        assert batch.state.payoff[i].tolist() == [int(x) for x in env.state.payoff]  # the same hand played
    if name != "stud":
        assert free_choices > 0  # declarations or splits were reached


def test_random_bot_is_uniform_over_the_legal_actions() -> None:
    """At the same spot in 4,096 tables the random bot's choices are uniform (chi-square)."""
    batch = make("stud", 4096, 2)
    batch.reset(seed=0, decks=torch.arange(52).repeat(4096, 1), buttons=torch.zeros(4096, dtype=torch.long))
    mask = batch.legal_mask()
    assert (mask == mask[0]).all()
    legal = torch.nonzero(mask[0]).flatten()
    chosen = BatchedRandom(seed=5).act(batch, torch.ones(4096, dtype=torch.bool))
    counts = torch.bincount(chosen, minlength=mask.shape[1])
    assert counts[~mask[0]].sum() == 0
    expected = 4096 / len(legal)
    chi2 = float(((counts[legal] - expected) ** 2 / expected).sum())
    assert chi2 < 16.3  # 99.9% point of chi-square with up to 3 degrees of freedom


def test_seed_replays_the_stream() -> None:
    batch = make("razz", 256, 3)
    batch.reset(seed=1)
    rows = torch.ones(256, dtype=torch.bool)
    bot = BatchedRandom(seed=9)
    first = bot.act(batch, rows)
    bot.seed(9)
    assert torch.equal(first, bot.act(batch, rows))


def test_load_batched() -> None:
    batch = make("stud", 4, 2)
    for spec in ("random", "call"):
        bot = load_batched(spec, batch, seed=0)
        assert isinstance(bot, BatchedBot)
        assert bot.name == spec
    with pytest.raises(NoBatchedBotError, match="no batched form"):
        load_batched("pretrained:stud", batch)


def test_finished_tables_do_not_stop_the_others() -> None:
    """Without auto-reset a finished table has no legal action; the bots still answer
    for the live tables (and something for the finished ones, which is ignored)."""
    batch = make("toy_stud", 64, 2, auto_reset=False)
    batch.reset(seed=4)
    random, call = BatchedRandom(seed=1), BatchedCall(seed=2)
    mixed = 0
    for _ in range(40):
        live = ~batch.state.done
        if not live.any():
            break
        mixed += int(not live.all())
        for bot in (call, random):
            actions = bot.act(batch, live)
            assert batch.legal_mask()[live].gather(1, actions[live, None]).all()
        batch.step(torch.where(live, actions, torch.zeros_like(actions)), active=live)
    assert batch.state.done.all()
    assert mixed  # some steps had finished and live tables together
