"""The Cowboy family: Cowboy, Cowgirl and Cowpattie (options and the program in
:mod:`.rules`, the deal in :mod:`.deal`, showdown and settling in :mod:`.showdown`,
the typed game state in :mod:`.state`, observation pieces in :mod:`.pieces`, the
variants as data in :mod:`.variants`)."""

from envs.variants.cowboy.rules import CowboyOptions
from envs.variants.cowboy.variants import COWBOY, COWGIRL, COWPATTIE, VARIANTS

__all__ = ["COWBOY", "COWGIRL", "COWPATTIE", "VARIANTS", "CowboyOptions"]
