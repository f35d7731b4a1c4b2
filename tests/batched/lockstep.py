"""The lockstep harness: a batch and one scalar env per table, the same decks,
buttons and seeded random legal actions; every decision compared."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

import envs
from envs.batched import TableBatch, make


@dataclass
class Tally:
    """What a run reached: decisions, hands, and the rare paths (from the scalar states)."""

    decisions: int = 0
    hands: int = 0
    paths: Counter[str] = field(default_factory=Counter)


def _scalar_reset(env: Any, batch: TableBatch, i: int) -> None:
    s = batch.state
    env.reset(options={"deck": s.deck[i].tolist(), "button": int(s.button[i])})


def _paths(env: Any, tally: Tally) -> None:
    """Count the rare rules a finished scalar hand used."""
    st = env.state
    tally.hands += 1
    if st.odd_chips:
        tally.paths["odd chips"] += 1
    if st.community:
        tally.paths["community card"] += 1
    live_all_in = [s for s in st.live() if st.all_in(s)]
    levels = {st.committed[s] for s in st.live()}
    if len(live_all_in) >= 2 and len(levels) >= 3:
        tally.paths["side pots, several all-ins"] += 1
    elif live_all_in and len(levels) >= 2:
        tally.paths["side pot"] += 1
    for e in st.events:
        if e.kind == "reveal":
            tally.paths[f"declare {e.text}"] += 1
        if e.kind == "split" and e.verb.name == "ILLEGAL_SPLIT":
            tally.paths["illegal split"] += 1
        if e.kind == "burn":
            tally.paths["burn"] += 1
        if e.kind == "reshuffle":
            tally.paths["burned cards reused" + (", then a community card" if st.community else " and dealt")] += 1
    if len(st.live()) > 1:
        tally.paths["showdown"] += 1


def run_lockstep(
    name: str,
    num_players: int,
    tables: int,
    steps: int,
    seed: int,
    *,
    batch: TableBatch | None = None,
    decks: Any = None,
    buttons: Any = None,
    paths: Any = _paths,
    weights: dict[int, float] | None = None,
    **options: Any,
) -> Tally:
    """Play ``steps`` decisions at ``tables`` tables through both engines and assert
    they agree at every decision (seat, mask, observation of the actor and of one
    other seat, rewards, done)."""
    batch = batch if batch is not None else make(name, tables, num_players, **options)
    rng = np.random.default_rng(seed)
    out = batch.reset(seed=seed, decks=decks, buttons=buttons)
    scalars = [envs.make_raw(name, num_players, **options) for _ in range(tables)]
    for i, env in enumerate(scalars):
        _scalar_reset(env, batch, i)
    tally = Tally()
    weight = np.ones(batch.num_actions)
    weight[0] = 0.15  # fold rarely: hands reach the later streets and the showdown
    for action, w in (weights or {}).items():
        weight[action] = w
    for _ in range(steps):
        mask = out.action_mask.numpy()
        other = int(rng.integers(num_players))
        others = batch.observe(other).numpy()
        actions = np.zeros(tables, np.int64)
        for i, env in enumerate(scalars):
            seat = env.agent_name_mapping[env.agent_selection]
            assert int(out.seat[i]) == seat, f"table {i}: seat {int(out.seat[i])} vs scalar {seat}"
            want = env.observe(env.agent_selection)
            assert (mask[i] == want["action_mask"].astype(bool)).all(), (
                f"table {i}: mask {mask[i].nonzero()} vs {want['action_mask'].nonzero()}\n{env.render_text(None)}"
            )
            got = out.observation[i].numpy()
            bad = np.flatnonzero(got != want["observation"])
            assert not len(bad), (
                f"table {i}: observation differs at {bad[:10]}: {got[bad[:10]]} vs {want['observation'][bad[:10]]}"
            )
            want_other = env.observe(f"player_{other}")["observation"]
            assert (others[i] == want_other).all(), f"table {i}: seat {other}'s observation differs"
            legal = np.flatnonzero(mask[i])
            actions[i] = rng.choice(legal, p=weight[legal] / weight[legal].sum())
        out = batch.step(torch.as_tensor(actions))
        tally.decisions += tables
        for i, env in enumerate(scalars):
            env.step(int(actions[i]))
            over = all(env.terminations.values())
            assert bool(out.done[i]) == over, f"table {i}: done {bool(out.done[i])} vs scalar {over}"
            if over:
                want = np.array([env.rewards[a] for a in env.possible_agents], np.float32)
                np.testing.assert_array_equal(out.rewards[i].numpy(), want, err_msg=f"table {i} rewards")
                paths(env, tally)
                _scalar_reset(env, batch, i)
            else:
                assert not out.rewards[i].any()
    return tally
