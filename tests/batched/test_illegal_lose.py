"""``illegal_action="lose"``: per table, as the AEC env with the same option; the
default still raises and changes nothing."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import envs
import envs.batched as eb


def _reset(env, batch: eb.TableBatch, i: int) -> None:
    env.reset(options={"deck": batch.state.deck[i].tolist(), "button": int(batch.state.button[i])})


@pytest.mark.parametrize(("name", "players"), [("stud", 2), ("stud", 4), ("cowpie", 3), ("stud_hilo_declare", 3)])
def test_lose_matches_the_aec_env(name: str, players: int) -> None:
    """Lockstep with the AEC env (``illegal_action="lose"``): some tables give masked-out
    or out-of-range actions; the same tables lose with the same rewards, the others
    play on, and every later decision still agrees."""
    tables, rng = 6, np.random.default_rng(players)
    batch = eb.make(name, tables, players, illegal_action="lose", ante=1)
    out = batch.reset(seed=players)
    scalars = [envs.make_raw(name, players, illegal_action="lose", ante=1) for _ in range(tables)]
    for i, env in enumerate(scalars):
        _reset(env, batch, i)
    losses = kinds = 0
    seen = set()
    for _ in range(70):
        mask = out.action_mask.numpy()
        actions = np.zeros(tables, np.int64)
        for i, env in enumerate(scalars):
            want = env.observe(env.agent_selection)
            assert int(out.seat[i]) == env.agent_name_mapping[env.agent_selection]
            assert (mask[i] == want["action_mask"].astype(bool)).all()
            assert (out.observation[i].numpy() == want["observation"]).all()
            legal, illegal = np.flatnonzero(mask[i]), np.flatnonzero(~mask[i])
            roll = rng.random()
            if roll < 0.04:
                actions[i] = [-1, batch.num_actions, 10**6][int(rng.integers(3))]
                seen.add("out of range")
            elif roll < 0.1 and len(illegal):
                actions[i] = rng.choice(illegal)
                seen.add("masked out")
            else:
                actions[i] = rng.choice(legal)
        out = batch.step(torch.as_tensor(actions))
        assert out.illegal is not None
        for i, env in enumerate(scalars):
            env.step(int(actions[i]))
            lost = any("illegal_action" in info for info in env.infos.values())
            assert bool(out.illegal[i]) == lost
            over = all(env.terminations.values())
            assert bool(out.done[i]) == over
            if over:
                want = np.array([env.rewards[a] for a in env.possible_agents], np.float32)
                np.testing.assert_array_equal(out.rewards[i].numpy(), want)
                losses += lost
                _reset(env, batch, i)
        kinds = len(seen)
    assert losses >= 3 and kinds == 2


@pytest.mark.parametrize("sync_free", [False, True])
def test_lose_ends_only_the_offending_tables_and_raise_stays_the_default(sync_free: bool) -> None:
    batch = eb.make("stud", 4, 3, illegal_action="lose", sync_free=sync_free)
    out = batch.reset(seed=1)
    before = {k: v.clone() for k, v in batch.state.tensors().items()}
    legal = out.action_mask.long().argmax(1)
    illegal = (~out.action_mask).long().argmax(1)
    actions = torch.where(torch.tensor([True, False, True, False]), illegal, legal)
    actions[2] = 99  # out of range
    out = batch.step(actions)
    assert out.illegal.tolist() == [True, False, True, False] and out.done.tolist() == [True, False, True, False]
    offender = before["actor"]
    for i in (0, 2):
        want = torch.full((3,), 0.5)
        want[offender[i]] = -1.0
        assert torch.equal(out.rewards[i], want)
        assert int(batch.last.n_decisions[i]) == int(before["n_decisions"][i])  # the illegal action is not recorded
        assert torch.equal(batch.last.deck[i], before["deck"][i])
    assert not out.rewards[[1, 3]].any()
    assert torch.equal(batch.state.hand, torch.tensor([1, 0, 1, 0]))  # the losers were dealt their next hand
    strict = eb.make("stud", 4, 3)
    out = strict.reset(seed=1)
    snap = {k: v.clone() for k, v in strict.state.tensors().items()}
    with pytest.raises(eb.BatchedIllegalActionError, match="illegal actions"):
        strict.step(actions)
    assert all(torch.equal(v, strict.state.tensors()[k]) for k, v in snap.items())
    with pytest.raises(eb.BatchedIllegalActionError):
        batch.step(actions.float())  # a malformed tensor raises even with "lose"


def test_lose_is_validated() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        eb.make("stud", 2, illegal_action="forfeit")
    with pytest.raises(ValueError, match="check_actions"):
        eb.make("stud", 2, illegal_action="lose", check_actions=False)
