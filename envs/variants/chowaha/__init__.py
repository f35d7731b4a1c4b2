"""Chowaha: two hole cards, three flops, two turns and a river forming four boards
(rules in :mod:`.rules`, the variant in :mod:`.variants`, observation pieces in
:mod:`.pieces`)."""

from envs.variants.chowaha.rules import BOARDS, LAYOUT, LAYOUT_SIZE, LOW_QUALIFIER, STREET_NAMES, ChowahaOptions
from envs.variants.chowaha.variants import CHOWAHA

__all__ = ["BOARDS", "CHOWAHA", "LAYOUT", "LAYOUT_SIZE", "LOW_QUALIFIER", "STREET_NAMES", "ChowahaOptions"]
