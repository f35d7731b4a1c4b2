"""The batch's contract: B-invariance, records, save/restore, errors, properties."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import envs
import envs.batched as eb
from envs.batched.rng import hashed
from envs.variants import replay


def pick(out: eb.BatchStep, step: int, tables: torch.Tensor) -> torch.Tensor:
    """A legal action per table that depends only on (table, step, mask)."""
    mask = out.action_mask
    k = hashed(99, tables, torch.full_like(tables, step), 1)[:, 0] % mask.sum(1).clamp(min=1)
    order = mask.long().cumsum(1) - 1
    return ((order == k.unsqueeze(1)) & mask).long().argmax(1)


def play(batch: eb.TableBatch, steps: int, seed: int = 5) -> list[eb.BatchStep]:
    out = batch.reset(seed=seed)
    outs = [out]
    for t in range(steps):
        out = batch.step(pick(out, t, batch.tables))
        outs.append(out)
    return outs


def test_same_hands_for_one_and_4096_tables() -> None:
    small, big = eb.make("stud", 1), eb.make("stud", 4096)
    few = eb.make("stud", 4)
    a, b, c = play(small, 6), play(big, 6), play(few, 6)
    for x, y, z in zip(a, b, c, strict=True):
        for name in ("observation", "action_mask", "seat", "rewards", "done"):
            assert torch.equal(getattr(x, name), getattr(y, name)[:1]), name
            assert torch.equal(getattr(z, name), getattr(y, name)[:4]), name
    assert torch.equal(small.state.deck, big.state.deck[:1])
    assert len({tuple(d) for d in big.state.deck[:64].tolist()}) == 64  # tables get different decks


def test_sync_free_mode_gives_the_same_play() -> None:
    """The GPU path (no host sync in a step) run on the CPU: identical to the CPU path."""
    a = play(eb.make("stud_hilo_declare", 4, 3, stack=30, ante=1), 12)
    b = play(eb.make("stud_hilo_declare", 4, 3, stack=30, ante=1, sync_free=True), 12)
    for x, y in zip(a, b, strict=True):
        assert torch.equal(x.observation, y.observation) and torch.equal(x.rewards, y.rewards)
        assert torch.equal(x.action_mask, y.action_mask) and torch.equal(x.done, y.done)


@pytest.mark.parametrize("name", ["stud", "cowpie", "toy_stud"])
def test_records_replay_to_the_same_payoffs(name: str) -> None:
    batch = eb.make(name, 8, 2)
    out = batch.reset(seed=1)
    finished: set[int] = set()
    for t in range(40):
        out = batch.step(pick(out, t, batch.tables))
        for i in out.done.nonzero().squeeze(1).tolist()[: 2 - len(finished)]:
            record = batch.record(i, finished=True)
            state = replay(record)
            assert state.payoffs() == batch.last.payoff[i].tolist() == record.payoffs
            assert (out.rewards[i] * state.game.unit).round().long().tolist() == state.payoffs()
            finished.add(i)
    assert finished
    current = batch.record(0)
    assert current.payoffs is None and len(current.decisions) == int(batch.state.n_decisions[0])


def test_save_and_restore_resume_exactly() -> None:
    batch = eb.make("razz", 8, 4, ante=1)
    out = batch.reset(seed=3)
    for t in range(10):
        out = batch.step(pick(out, t, batch.tables))
    saved = batch.state_dict()
    later = [batch.step(pick(out, 10 + t, batch.tables)) for t in range(1)]
    for t in range(1, 20):
        later.append(batch.step(pick(later[-1], 10 + t, batch.tables)))
    batch.load_state_dict(saved)
    again = [batch.step(pick(out, 10, batch.tables))]
    for t in range(1, 20):
        again.append(batch.step(pick(again[-1], 10 + t, batch.tables)))
    for x, y in zip(later, again, strict=True):
        assert torch.equal(x.observation, y.observation) and torch.equal(x.rewards, y.rewards)


def test_properties_over_random_play() -> None:
    """Chips conserved, zero-sum rewards, no card dealt twice, a non-empty mask for every
    table to act (``tests/envs`` checks the same of the scalar env)."""
    batch = eb.make("stud", 32, 6, stack=(20, 30, 40, 50, 60, 70), ante=1)
    out = batch.reset(seed=7)
    start = torch.tensor([20, 30, 40, 50, 60, 70])
    total = torch.zeros(6)
    for t in range(80):
        s = batch.state
        assert (out.action_mask.sum(1) > 0).all()
        assert torch.equal(s.stack + s.committed, start.expand(32, -1))
        dealt = torch.cat([s.cards.flatten(1), s.community.unsqueeze(1)], 1).sort(1).values
        assert not ((dealt[:, 1:] == dealt[:, :-1]) & (dealt[:, 1:] >= 0)).any()  # no card twice
        out = batch.step(pick(out, t, batch.tables))
        assert (out.rewards.sum(1).abs() < 1e-5).all()
        total += out.rewards.sum(0)
    assert out.done.dtype == torch.bool


def _snapshot(batch: eb.TableBatch) -> dict[str, torch.Tensor]:
    return {k: v.clone() for k, v in batch.state.tensors().items()}


@pytest.mark.parametrize(
    ("make_actions", "message"),
    [
        (lambda out: torch.zeros(4, dtype=torch.int64), "illegal actions"),  # fold while not facing a bet
        (lambda out: torch.full((4,), 99), "out of range"),
        (lambda out: torch.ones(4, dtype=torch.float32), "dtype"),
        (lambda out: torch.ones(5, dtype=torch.int64), "shape"),
        (lambda out: [1, 1, 1, 1], "torch int tensor"),
        (lambda out: torch.ones(4, dtype=torch.int64, device="meta"), "the batch is on cpu"),
    ],
    ids=["masked", "range", "dtype", "shape", "type", "device"],
)
def test_bad_actions_raise_and_change_nothing(make_actions, message: str) -> None:
    batch = eb.make("stud", 4, bring_in=None)
    out = batch.reset(seed=0)
    before = _snapshot(batch)
    with pytest.raises(envs.engine.errors.IllegalActionError, match=message) as err:
        batch.step(make_actions(out))
    after = _snapshot(batch)
    assert all(torch.equal(before[k], after[k]) for k in before)
    if message in ("illegal actions", "out of range"):
        assert "legal: check_call" in str(err.value) and err.value.tables


def test_bad_options_seats_and_devices_match_envs_make() -> None:
    for kwargs in ({"num_players": 9}, {"banana": 1}, {"small_bet": 0}):
        n = kwargs.pop("num_players", 2)
        with pytest.raises(ValueError) as scalar:
            envs.make("stud", n, **kwargs)
        with pytest.raises(ValueError) as batched:
            eb.make("stud", 4, n, **kwargs)
        assert str(scalar.value) == str(batched.value)
    with pytest.raises(ValueError, match="unknown environment"):
        eb.make("holdem", 4)
    with pytest.raises(ValueError, match="device"):
        eb.make("stud", 4, device="banana")
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="not available"):
            eb.make("stud", 4, device="cuda")


@pytest.mark.parametrize(
    ("name", "players", "options", "missing"),
    [
        ("chowaha", 2, {}, "DealHoleCards"),
        ("cowboy", 3, {}, "episode of a game"),
        ("dealers_choice", 2, {}, "ChooseGame"),
        ("stud", 2, {"stack": 10**50}, "int64"),
    ],
)
def test_what_has_no_batched_form_says_so(name: str, players: int, options: dict, missing: str) -> None:
    with pytest.raises(eb.NoBatchedFormError, match=missing):
        eb.make(name, 2, players, **options)


def test_decks_and_buttons_are_checked() -> None:
    batch = eb.make("stud", 2)
    with pytest.raises(ValueError, match="decks"):
        batch.reset(decks=np.zeros((2, 52), np.int64))
    with pytest.raises(ValueError, match="buttons"):
        batch.reset(buttons=[0, 2])
    deck = np.stack([np.arange(52)[::-1], np.arange(52)])
    out = batch.reset(decks=deck, buttons=[1, 0])
    assert batch.state.button.tolist() == [1, 0] and out.seat.tolist() != [-1, -1]


def test_without_auto_reset_a_finished_table_waits_and_reports_once() -> None:
    batch = eb.make("toy_stud", 4, auto_reset=False)
    out = batch.reset(seed=1)
    reported = torch.zeros(4, dtype=torch.long)
    for t in range(30):
        out = batch.step(pick(out, t, batch.tables))
        reported += out.done.long()
        assert (out.action_mask[batch.state.done] == 0).all() and (out.seat[batch.state.done] == -1).all()
    assert (reported <= 1).all() and batch.state.done.all()
    assert [replay(batch.record(i)).payoffs() for i in range(4)] == batch.state.payoff.tolist()


def test_held_observations_are_never_overwritten() -> None:
    """Observation buffers are reused only once nobody holds them: a kept observation,
    a view of one and a numpy array on one keep their values while play goes on."""
    batch = eb.make("stud", 64, 3)
    out = batch.reset(seed=3)
    kept, copies = [], []
    for t in range(12):
        out = batch.step(pick(out, t, batch.tables))
        holder = [out.observation, out.observation[:, :40], out.observation.numpy()][t % 3]
        kept.append(holder)
        copies.append(out.observation.clone())
    for holder, copy in zip(kept, copies, strict=True):
        got = torch.as_tensor(holder)
        assert torch.equal(got, copy[:, : got.shape[1]])
    fresh = batch.observe(0)
    assert torch.equal(fresh, batch.observe(0))  # a dropped buffer is zeroed before reuse
