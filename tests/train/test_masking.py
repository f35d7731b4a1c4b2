"""Action masking: masked actions are never sampled, never chosen greedily, and add
nothing to the entropy; the network agent plays only legal actions everywhere."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

import evaluation
from agents.nets import MASKED_LOGIT, PolicyNet, choose, entropy, log_probs, masked_logits
from agents.neural import Layout, NeuralAgent
from tests.envs.cases import OPTIONS


def random_masks(rng: np.random.Generator, rows: int, width: int) -> torch.Tensor:
    masks = rng.random((rows, width)) < 0.3
    masks[np.arange(rows), rng.integers(0, width, rows)] = True  # at least one legal action per row
    return torch.from_numpy(masks)


def test_masked_actions_are_never_sampled_even_with_the_largest_logits() -> None:
    rng = np.random.default_rng(0)
    masks = random_masks(rng, 512, 28)
    logits = torch.from_numpy(rng.normal(0, 3, (512, 28)).astype(np.float32))
    logits[~masks] = 1e6  # illegal actions look overwhelmingly attractive
    generator = torch.Generator().manual_seed(1)
    for _ in range(40):
        actions, logp = choose(logits, masks, generator=generator)
        assert bool(masks[torch.arange(512), actions].all())
        assert bool(torch.isfinite(logp).all())


def test_sampling_follows_the_masked_softmax() -> None:
    logits = torch.tensor([[2.0, 0.0, 1.0, 5.0]])
    mask = torch.tensor([[True, True, True, False]])
    generator = torch.Generator().manual_seed(3)
    draws = torch.cat([choose(logits.expand(4000, 4), mask.expand(4000, 4), generator=generator)[0]])
    freq = torch.bincount(draws, minlength=4).double() / len(draws)
    expected = torch.softmax(torch.tensor([2.0, 0.0, 1.0]), 0).double()
    assert freq[3] == 0
    assert torch.allclose(freq[:3], expected, atol=0.03)


def test_log_probs_entropy_and_greedy_under_a_mask() -> None:
    logits = torch.tensor([[3.0, 1.0, 1.0, 9.0], [0.0, 0.0, 0.0, 0.0]])
    mask = torch.tensor([[1, 1, 1, 0], [0, 1, 1, 0]], dtype=torch.int8)
    logp = log_probs(logits, mask)
    probs = logp.exp()
    assert probs[0, 3] == 0 and probs[1, 0] == 0 and probs[1, 3] == 0  # exactly zero
    assert torch.allclose(probs.sum(1), torch.ones(2))
    assert torch.allclose(entropy(logp, mask)[1], torch.tensor(math.log(2)))  # uniform over the two legal
    greedy, _ = choose(logits, mask, greedy=True)
    assert greedy.tolist()[0] == 0  # the illegal 9.0 is not taken
    assert masked_logits(logits, mask)[0, 3] == MASKED_LOGIT


def test_a_row_without_legal_actions_is_an_error() -> None:
    with pytest.raises(ValueError, match="no legal action"):
        masked_logits(torch.zeros(2, 3), torch.tensor([[1, 0, 0], [0, 0, 0]]))


CASES = [("stud", 2), ("razz", 3), ("stud_hilo", 2), ("stud_hilo_declare", 3), ("cowpie", 2), ("chowaha", 3)]
CASES += [("cowboy", 3), ("cowgirl", 4), ("cowpattie", 3)]


@pytest.mark.parametrize(("variant", "n"), CASES, ids=[f"{v}-{n}" for v, n in CASES])
def test_network_agent_plays_only_legal_actions(variant: str, n: int) -> None:
    options = dict(OPTIONS[variant][1]) if variant.startswith("cow") else {}
    layout = Layout.build(variant, n, options)
    torch.manual_seed(0)
    net = PolicyNet(layout.obs_size, len(layout.action_names), [32], card_groups=layout.card_groups())
    for greedy in (False, True):
        bot = NeuralAgent(net, layout, greedy=greedy, seed=1)
        # the env raises IllegalActionError on any illegal action, so finishing is the check
        result = evaluation.run_match(variant, [bot, "random"], deals=25, num_players=n, seed=4, options=options)
        assert result.sets == 25
        assert {h.deal for h in result.hands} == set(range(25))
        assert all(abs(sum(h.rewards)) < 1e-9 for h in result.hands)
