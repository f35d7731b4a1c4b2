"""Kickstarting: a pull toward teacher networks on the decisions they cover.

Why: the dealer's choice generalist sees each game about a seventh as often as that
game's specialist sees its own, and after 2.7M decisions it still lost razz to the
heuristic (-19.0 ± 8.4 big bets per 100 hands) where the razz specialist beats it by
+20.8 (README, "One agent for every game"). Schmitt et al. 2018 ("Kickstarting deep
reinforcement learning") add to the student's RL loss, on the student's own decisions,
the cross-entropy to a teacher's policy; Rusu et al. 2016 ("Policy distillation")
showed one network can hold several single-task teachers. Here the loss term, per
taught decision, is ``KL(teacher || pi) = sum over legal a of t(a) (log t(a) - log
pi(a))`` (the cross-entropy up to the teacher's own entropy, which has no gradient),
averaged over each taught game's decisions in the minibatch, then over the games
(razz, which the generalist's button seldom names, weighs as much as the game it names
most), and weighted by ``ppo.teacher_coef``;
the RL loss keeps training everything else, and the taught games too.

A teacher is a network of one listed game (``ppo.teachers = {razz =
"pretrained:razz"}``). On a decision of that game the table's vector at the game's index
map is the game's own observation exactly (:func:`envs.variants.mixed.index_maps`), and
the game's actions are the table's first ones, so the teacher's distribution comes from
the rollout's stored observations and masks alone, once per rollout. Decisions a
teacher does not cover add nothing: another game's, the button's choice of game, and a
teacher's candidate decisions (declarations, Cowpie splits), whose candidate head would
need features the rollout holds only in the table's own form.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from agents.checkpoint import CheckpointError
from agents.committee import listed_games
from agents.loading import load, network_path
from agents.nets import PolicyNet, log_probs
from envs.registry import make_raw
from envs.variants.mixed import index_maps
from solvers.toy import quote
from training.config_files import ConfigError
from training.magnet import magnet_kl

__all__ = ["Teachers", "teacher_kl"]

TABLE = "dealers_choice"


@dataclass
class _Member:
    """One taught game: its column of the game-in-play one-hot, where its own
    observation lies in the table's vector, and its network (whose actions are the
    table's first ``net.num_actions``)."""

    game: str
    column: int
    places: torch.Tensor
    net: PolicyNet
    spec: str
    path: str


def teacher_kl(
    teacher_logp: torch.Tensor, logp: torch.Tensor, mask: torch.Tensor, game: torch.Tensor, games: int
) -> torch.Tensor:
    """``KL(teacher || pi)`` on the legal actions, averaged over each taught game's rows
    (``game``: the teaching game's index below ``games``, -1 where none teaches), then
    over the games present (0 when none is): every taught game weighs alike, however
    often it is dealt. Illegal actions and untaught rows add exactly 0."""
    taught = game >= 0
    rows = magnet_kl(teacher_logp, logp, mask.bool() & taught.unsqueeze(1))  # the same sum, teacher first
    index = game.clamp(min=0)
    sums = torch.zeros(games, dtype=rows.dtype, device=rows.device).index_add(0, index, rows)
    counts = torch.zeros(games, dtype=rows.dtype, device=rows.device).index_add(0, index, taught.to(rows.dtype))
    present = counts > 0
    return (sums / counts.clamp(min=1)).sum() / present.sum().clamp(min=1)


class Teachers:
    """The teachers of a dealer's choice run (``ppo.teachers``: game -> network spec).

    Args:
        variant, num_players, options: the run's table (``[env]``); only a dealers_choice
            table has games to teach.
        specs: game -> a network spec of that game and table size (``pretrained:<game>``
            or a checkpoint path), played at the mixed table's version of its game, as
            the committee of specialists plays it (``agents/committee.py``).
        device: where the learner and its update run.

    Raises:
        ConfigError: naming the setting and what is wrong (not a dealers_choice table, a
            game it does not deal, a bot instead of a network, a network of another game
            or table size).
    """

    def __init__(
        self, variant: str, num_players: int, options: dict[str, Any], specs: dict[str, str], device: str = "cpu"
    ) -> None:
        if variant != TABLE:
            raise ConfigError(f"ppo.teachers teaches the games of a {TABLE} table; this run plays {variant}")
        table = make_raw(variant, num_players, **options)
        games = listed_games(table)
        maps = index_maps(table.game)
        self.members: list[_Member] = []
        for game, spec in specs.items():
            if game not in games:
                raise ConfigError(f"ppo.teachers.{game}: this table deals {', '.join(games)}, not {game!r}")
            net, path = _network(game, spec, num_players, len(maps[game]))
            places = torch.as_tensor(maps[game], device=device)
            self.members.append(_Member(game, games.index(game), places, net.to(device), spec, str(path)))

    @torch.no_grad()
    def log_probs(self, obs: torch.Tensor, masks: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """The teachers' masked log-probabilities over the table's actions (0 in rows no
        teacher covers) and which member teaches each row (its index in ``members``, -1:
        none)."""
        out = torch.zeros(masks.shape, dtype=torch.float32, device=masks.device)
        taught = torch.full((len(masks),), -1, dtype=torch.int64, device=masks.device)
        legal = masks.bool()
        for k, m in enumerate(self.members):
            rows = obs[:, m.column] > 0.5
            if m.net.candidates is not None:
                lo, hi = m.net.candidates
                rows &= ~legal[:, lo:hi].any(1)
            index = rows.nonzero().squeeze(1)
            if not len(index):
                continue
            own = obs[index[:, None], m.places]
            n = m.net.num_actions
            out[index, :n] = log_probs(m.net.logits(own), masks[index, :n])
            taught[index] = k
        return out, taught

    def describe(self) -> str:
        """Who teaches what, for the run's log (text ``teachers`` in TensorBoard)."""
        return ", ".join(f"{m.game}: {m.spec} ({m.path})" for m in self.members)


def _network(game: str, spec: str, num_players: int, size: int) -> tuple[PolicyNet, Path]:
    """The network of ``spec`` and its file, checked to be one of ``game`` at this table size."""
    where = f"ppo.teachers.{game} = {quote(spec)}"
    try:
        path = network_path(spec)
    except ValueError as err:
        raise ConfigError(f"{where}: {err}") from None
    if path is None:
        raise ConfigError(f"{where}: a teacher must be a network (pretrained:<game> or a .pt checkpoint), not a bot")
    try:
        agent = load(spec, variant=game, num_players=num_players, strict_options=False)
    except (CheckpointError, ValueError) as err:
        raise ConfigError(f"{where}: {err}") from None
    layout = agent.layout
    if (layout.variant, layout.num_players) != (game, num_players) or layout.obs_size != size:
        raise ConfigError(
            f"{where}: a teacher of {game} must be a {game} network for {num_players} players whose observation is "
            f"the table's {size} floats of that game; this one was trained for {layout.describe()} "
            f"({layout.obs_size} floats)"
        )
    net: PolicyNet = agent.net
    return net, path
