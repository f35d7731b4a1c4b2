"""A small random network with the candidate head, for the LBR tests of games whose
shipped agent scores its declarations or splits from the public view."""

from __future__ import annotations

from typing import Any

import torch

from agents.candidates import candidate_slots
from agents.nets import PolicyNet
from agents.neural import Layout, NeuralAgent


def candidate_agent(variant: str, greedy: bool, options: dict[str, Any] | None = None) -> NeuralAgent:
    """A heads-up network of ``variant`` with the candidate head (as the shipped agents
    score their declarations and Cowpie splits), its weights sharpened so the candidate
    features matter."""
    layout = Layout.build(variant, 2, dict(options or {}))
    torch.manual_seed(0)
    net = PolicyNet(
        layout.obs_size, len(layout.action_names), [16], candidates=candidate_slots(len(layout.action_names))
    )
    with torch.no_grad():
        for p in net.parameters():
            p.mul_(8.0)
    return NeuralAgent(net, layout, greedy=greedy, seed=3)
