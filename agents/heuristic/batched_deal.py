"""The heuristic's Monte Carlo deal on tensors: what each acting seat has seen, and random
completions of every live hand consistent with it, for many tables at once.

This is :func:`agents.heuristic.stud.deal_plan` and its sampler for a
:class:`~envs.batched.table.TableBatch`, row by row the same rules:

* seen: the seat's own cards, every face-up card of every seat (folded seats' too) and
  the community card; the pool is the game's deck (toy stud's short one too) less
  those. Nothing else of the state is read: the others' face-down cards and the stub
  stay unread, which the no-leak test checks by reshuffling them;
* every live hand is filled up to the full hand (seven cards in seven-card stud): the
  bot's unknown future cards and each live opponent's down and future cards are drawn
  from the pool without replacement;
* when the pool cannot give every live player its own last card (eight players at
  seventh street), that card is one community card for all, as the dealer deals it;
* face-down flags: the bot's own as dealt, the opponents' from the streets' pattern,
  the last card face up when it is (or will be) the community card (Cowpie's split
  legality reads them).

Sampling is a partial Fisher-Yates shuffle of each sample's copy of the pool: draw
``i`` picks uniformly among the pool cards not drawn yet, so every row is a uniformly
random ordered draw without replacement, exactly the distribution of the scalar
``sample_cards`` (whose argsort of random keys is another way to the same law). The
random numbers come from the bot's own ``torch.Generator``; the number drawn depends
only on what the seats see.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import torch

from envs.batched.table import TableBatch
from envs.engine.cards import NUM_CARDS

__all__ = ["DealRules", "TorchDeal", "deal_plan", "fill_hands", "live_first", "sample_pool"]


@dataclass(frozen=True)
class DealRules:
    """What the deal reads from the batch's variant and options (fixed per batch).

    Attributes:
        size: cards in a full hand (the slots of the batch's state).
        pattern: ``[size]`` bool, True where the dealt-order position is face down.
        can_share: a street may deal one community card when the stub runs short.
        in_deck: ``[52]`` bool, the game's cards.
        pool_width: the number of cards in the deck (the widest pool).
        first_own, first_up: cards a seat holds, and shows, after the first street.
    """

    size: int
    pattern: torch.Tensor
    can_share: bool
    in_deck: torch.Tensor
    pool_width: int
    first_own: int
    first_up: int

    def most_needed(self, players: int) -> int:
        """The most cards one decision can draw (its first street, every seat in):
        the sync-free path draws this many without reading ``need`` back."""
        return min(self.pool_width, self.size - self.first_own + (players - 1) * (self.size - self.first_up))

    @classmethod
    def of(cls, batch: TableBatch) -> DealRules:
        """The rules of ``batch``'s game (its variant's streets under its options)."""
        game = batch.game
        streets = game.variant.streets_for(game.options)
        pattern = [not up for street in streets for up in street.deal]
        if len(pattern) != batch.spec.slots:
            raise ValueError(f"{game.name}: the streets deal {len(pattern)} cards, the batch holds {batch.spec.slots}")
        in_deck = torch.zeros(NUM_CARDS, dtype=torch.bool, device=batch.device)
        in_deck[list(batch.spec.deck)] = True
        return cls(
            size=len(pattern),
            pattern=torch.tensor(pattern, dtype=torch.bool, device=batch.device),
            can_share=any(s.community_when_short for s in streets),
            in_deck=in_deck,
            pool_width=len(batch.spec.deck),
            first_own=len(streets[0].deal),
            first_up=sum(bool(up) for up in streets[0].deal),
        )


@dataclass(frozen=True)
class TorchDeal:
    """How to complete the live hands of R acting seats (one row per table).

    Attributes:
        tables: ``[R]`` the table of each row.
        seat: ``[R]`` the acting seat.
        me: ``[R, P]`` bool, the acting seat.
        live: ``[R, P]`` bool, seats still in (the bot included).
        known: ``[R, P, C]`` the cards the seat knows in each slot (its own, the up
            cards, the community card in every live hand's last slot), -1 elsewhere.
        columns: ``[R, P, C]`` for each unknown slot of a live hand, the column of
            the drawn cards that fills it (0 elsewhere: never read).
        down: ``[R, P, C]`` bool face-down flags of the completed hands.
        pool: ``[R, W]`` the unseen cards, sorted, in the first ``pool_size`` columns
            of each row (0 after them).
        pool_size: ``[R]``; need: ``[R]`` cards drawn per sample; shared: ``[R]`` the
            last card is one community card for everyone.
    """

    tables: torch.Tensor
    seat: torch.Tensor
    me: torch.Tensor
    live: torch.Tensor
    known: torch.Tensor
    columns: torch.Tensor
    down: torch.Tensor
    pool: torch.Tensor
    pool_size: torch.Tensor
    need: torch.Tensor
    shared: torch.Tensor


def deal_plan(batch: TableBatch, rules: DealRules, tables: torch.Tensor) -> TorchDeal:
    """The deal of every table of ``tables`` (an index tensor) for its seat to act,
    from what that seat sees only (see the module docstring)."""
    s = batch.state
    cards, up, ncards = s.cards[tables], s.up[tables], s.ncards[tables]
    seat = s.actor[tables].clamp(min=0)
    community = s.community[tables]
    r, p, c = cards.shape
    me = torch.arange(p, device=cards.device) == seat.unsqueeze(1)
    live = ~s.folded[tables]
    dealt = torch.arange(c, device=cards.device) < ncards.unsqueeze(2)
    visible = dealt & (me.unsqueeze(2) | up)
    known = torch.where(visible, cards, -1)
    pool, pool_size = _pool(known, community, rules)
    has_community = community >= 0
    last = torch.arange(c, device=cards.device) == c - 1
    known = torch.where(has_community.view(-1, 1, 1) & last, community.view(-1, 1, 1), known)
    unknown = live.unsqueeze(2) & (known < 0)
    own_cards = (ncards * me).sum(1)
    shared = rules.can_share & ~has_community & (own_cards < c) & (unknown.sum((1, 2)) > pool_size)
    drawn_own = unknown & ~(shared.view(-1, 1, 1) & last)
    flat = drawn_own.view(r, p * c)
    need = flat.sum(1) + shared.long()
    columns = (flat.long().cumsum(1) - 1).view(r, p, c)
    columns = torch.where(shared.view(-1, 1, 1) & last, (need - 1).view(-1, 1, 1), columns)
    columns = torch.where(unknown, columns, 0)
    down = rules.pattern.expand(r, p, c)
    down = torch.where(me.unsqueeze(2) & dealt, ~up, down)
    down = down & ~((has_community | shared).view(-1, 1, 1) & last)
    return TorchDeal(tables, seat, me, live, known, columns, down, pool, pool_size, need, shared)


def live_first(deal: TorchDeal, seats: int) -> TorchDeal:
    """The deal with each row's live seats moved to the front (in seat order) and only
    the first ``seats`` kept (at least each row's live count): seats out of the hand
    are never valued. ``me`` moves with its seat; ``seat`` stays the absolute seat."""
    order = (~deal.live).long().argsort(dim=1, stable=True)[:, :seats]

    def pick(t: torch.Tensor) -> torch.Tensor:
        index = order.view(*order.shape, *([1] * (t.dim() - 2))).expand(-1, -1, *t.shape[2:])
        return t.gather(1, index)

    fields = {name: pick(getattr(deal, name)) for name in ("me", "live", "known", "columns", "down")}
    return replace(deal, **fields)


def _pool(visible: torch.Tensor, community: torch.Tensor, rules: DealRules) -> tuple[torch.Tensor, torch.Tensor]:
    """The game's cards the seat has not seen, sorted, as ``[R, W]`` (first
    ``pool_size`` of each row) and ``[R]``."""
    r = visible.shape[0]
    seen = torch.zeros(r, NUM_CARDS + 1, dtype=torch.bool, device=visible.device)
    flat = torch.cat([visible.view(r, -1), community.unsqueeze(1)], 1) + 1  # -1 -> the spare column 0
    seen.scatter_(1, flat, True)
    available = rules.in_deck & ~seen[:, 1:]
    ids = torch.arange(NUM_CARDS, device=visible.device)
    key = torch.where(available, ids, NUM_CARDS + ids)
    pool = key.sort(1).values[:, : rules.pool_width]
    return torch.where(pool < NUM_CARDS, pool, 0), available.sum(1)  # past pool_size: never drawn


def sample_pool(deal: TorchDeal, samples: int, count: int, generator: torch.Generator) -> torch.Tensor:
    """``[R, samples, count]`` ordered draws without replacement from each row's pool
    (columns past a row's ``need`` are drawn too and never read): ``count`` steps of a
    partial Fisher-Yates shuffle on one copy of the pool per sample. Step ``i`` takes
    the card at a uniform position ``j`` among those not drawn yet (``i .. size - 1``)
    and moves the card at ``i`` there; position ``i`` is never read again."""
    r, width = deal.pool.shape
    count = min(count, width)
    n = r * samples
    device = deal.pool.device
    pool = deal.pool.to(torch.uint8).repeat_interleave(samples, 0)  # [n, W]: one copy per sample
    steps = torch.arange(count, device=device).unsqueeze(1)
    left = (deal.pool_size.repeat_interleave(samples).unsqueeze(0) - steps).clamp(min=1)  # [count, n]
    u = torch.rand(count, n, generator=generator, device=device)
    where = torch.minimum((u * left).long(), left - 1).add_(steps).unsqueeze(2)  # [count, n, 1]
    out = torch.empty(count, n, dtype=torch.uint8, device=device)
    for i in range(count):
        out[i] = pool.gather(1, where[i]).squeeze(1)
        pool.scatter_(1, where[i], pool[:, i : i + 1].clone())
    return out.t().reshape(r, samples, count).long()


def fill_hands(deal: TorchDeal, drawn: torch.Tensor) -> torch.Tensor:
    """``[R, S, P, C]`` completed hands: the known cards, and each unknown slot of a
    live hand from its column of ``drawn``; seats not in the hand hold a fixed hand of
    distinct ranks (their values are masked out, but must stay inside the tables)."""
    r, p, c = deal.known.shape
    s = drawn.shape[1]
    index = deal.columns.clamp(max=max(drawn.shape[2] - 1, 0)).view(r, 1, p * c).expand(r, s, p * c)
    if drawn.shape[2] == 0:
        filled = torch.zeros(r, s, p * c, dtype=torch.long, device=drawn.device)
    else:
        filled = drawn.gather(2, index)
    hands = torch.where(deal.known.view(r, 1, p * c) >= 0, deal.known.view(r, 1, p * c), filled).view(r, s, p, c)
    spare = torch.arange(c, device=drawn.device) * 5  # 2c 3d 4h 5s ...: a valid hand for the evaluators' tables
    return torch.where(deal.live.view(r, 1, p, 1), hands, spare)
