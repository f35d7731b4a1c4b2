"""Dealer's Choice: poker variants as multi-agent reinforcement-learning environments."""

__version__ = "0.1.0"
