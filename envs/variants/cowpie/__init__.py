"""Cowpie: seven-card stud where everyone splits into a five-card and a two-card hand
(rules in :mod:`.rules`, the variant in :mod:`.variants`, observation pieces in
:mod:`.pieces`, split scores for bots in :mod:`.splits`)."""

from envs.variants.cowpie.rules import CowpieOptions, split_cards, split_label, split_labels
from envs.variants.cowpie.splits import five_card_percentiles, rank_splits, split_scores, two_card_percentiles
from envs.variants.cowpie.variants import COWPIE

__all__ = [
    "COWPIE",
    "CowpieOptions",
    "five_card_percentiles",
    "rank_splits",
    "split_cards",
    "split_label",
    "split_labels",
    "split_scores",
    "two_card_percentiles",
]
