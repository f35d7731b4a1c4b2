"""Dealer's choice: one table where each hand's game is named by the dealer, a rotation
or chance (options and the choosing step in :mod:`.rules`, the stakes table in
:mod:`.stakes`, the one observation layout in :mod:`.pieces`, the variant over a
catalog of games in :mod:`.variants`)."""

from envs.variants.mixed.pieces import index_maps
from envs.variants.mixed.rules import CHOOSE_PREFIX, DealersChoiceOptions
from envs.variants.mixed.stakes import Stakes
from envs.variants.mixed.variants import dealers_choice

__all__ = ["CHOOSE_PREFIX", "DealersChoiceOptions", "Stakes", "dealers_choice", "index_maps"]
