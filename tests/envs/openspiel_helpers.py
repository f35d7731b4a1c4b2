"""Helpers for the OpenSpiel tests: walking positions, and matching the engine's
information sets of toy stud with the exact solver's (``solvers.InfoSets``)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from envs.engine.actions import CHECK_CALL
from envs.engine.game import Game
from envs.engine.state import State
from envs.openspiel.position import Position
from solvers import InfoSets, PublicTree, ToyParams

InfoKey = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[tuple[int, int], ...]]
"""(seat, down card, own up cards, other's up cards, (seat, action) of every decision)."""

TINY = {"ranks": "KA", "suits": "cdh", "streets": 1}  # 6 cards, one round: 5,556 positions


def toy_params(options: dict[str, object]) -> ToyParams:
    return ToyParams(**options)  # type: ignore[arg-type]


def walk(position: Position) -> Iterator[Position]:
    """Every position of the tree below (and including) ``position``, depth first."""
    yield position
    if position.is_terminal:
        return
    if position.is_chance:
        assert position.outcomes is not None
        for outcome in position.outcomes:
            yield from walk(position.chance(outcome))
        return
    assert position.engine is not None
    for action in position.engine.legal_actions():
        yield from walk(position.decide(action))


def random_path(
    game: Game, rng: np.random.Generator, *, passive: bool = False, max_steps: int = 100_000
) -> list[Position]:
    """The positions of one game played at random (uniform chance, uniform actions;
    ``passive``: check or call whenever that is legal, so that hands reach the end)."""
    path = [Position.start(game)]
    while not path[-1].is_terminal:
        position = path[-1]
        if position.is_chance:
            assert position.outcomes is not None
            path.append(position.chance(int(rng.choice(position.outcomes))))
        else:
            assert position.engine is not None
            legal = position.engine.legal_actions()
            action = CHECK_CALL if passive and CHECK_CALL in legal else int(rng.choice(legal))
            path.append(position.decide(action))
        assert len(path) < max_steps, "the game does not end"
    return path


def engine_key(st: State) -> InfoKey:
    """The solver's description of the information set of the seat to act."""
    seat = st.current_seat
    assert seat is not None
    down = next(c for c, up in zip(st.cards[seat], st.up[seat], strict=True) if not up)
    ups = [tuple(c for c, up in zip(st.cards[s], st.up[s], strict=True) if up) for s in range(2)]
    return (seat, down, ups[seat], ups[1 - seat], tuple(st.decisions))


def solver_rows(infosets: InfoSets) -> dict[InfoKey, int]:
    """Each of the solver's information sets by its description."""
    b = infosets.batch(0, infosets.count)
    rows: dict[InfoKey, int] = {}
    for i in range(len(b)):
        k, m = int(b.betting_round[i]), int(b.num_actions[i])
        key = (
            int(b.seat[i]),
            int(b.down[i]),
            tuple(int(c) for c in b.own_up[i, : k + 1]),
            tuple(int(c) for c in b.opp_up[i, : k + 1]),
            tuple((int(s), int(a)) for s, a in zip(b.action_seat[i, :m], b.action[i, :m], strict=True)),
        )
        rows[key] = int(b.index[i])
    return rows


def infosets_of(params: ToyParams) -> InfoSets:
    return InfoSets(PublicTree(params))
