"""A bot driven by a trained :class:`~agents.nets.PolicyNet`, and the table layout it
was trained for.

A network only makes sense for the observation and action layout it saw in training:
the same variant, player count and options. :class:`Layout` records them (plus the
observation pieces and action names, so that a change of the env code is caught
too), and :class:`NeuralAgent` refuses to act at a table that differs, rather than
reading a razz observation as if it were stud (the two have the same vector size).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from agents.base import Agent, Observation
from agents.candidates import FEATURES as CANDIDATE_FEATURES
from agents.candidates import candidate_features, needs_candidates
from agents.features import piece_card_groups
from agents.nets import PolicyNet, choose, log_probs
from envs.aec import DealersChoiceEnv
from envs.engine.options import OBSERVATION_OPTIONS
from envs.registry import make_raw
from envs.view import PublicView

IGNORED_OPTIONS = ("button",)  # where the button starts does not change what a seat sees
# options added after agents were shipped, recorded only when set: a layout saved before
# they existed and a table that leaves them at these defaults compare equal (the stud
# games' observation options, which change what a seat observes and never the game)
RECORDED_WHEN_SET = dict.fromkeys(OBSERVATION_OPTIONS, False)


STRICT_HINT = "; pass strict_options=False to allow it"  # the API's way out (command lines name --option flags)


class LayoutError(ValueError):
    """A network is asked to play a table it was not trained for."""


def option_value(options: dict[str, Any], name: str) -> Any:
    """An option of resolved options, a ``RECORDED_WHEN_SET`` one read as its default
    when absent (for messages that show both sides of a difference)."""
    return options.get(name, RECORDED_WHEN_SET.get(name))


def options_diff(trained: dict[str, Any], now: dict[str, Any]) -> dict[str, tuple[Any, Any]]:
    """The options that differ between two resolved option dicts: name -> (trained, now)."""
    both = {k: (option_value(trained, k), option_value(now, k)) for k in trained | now}
    return {k: pair for k, pair in both.items() if pair[0] != pair[1]}


def resolved_options(options: Any) -> dict[str, Any]:
    """A game's options dataclass as plain data, without the ones that do not matter
    (``IGNORED_OPTIONS``, and ``RECORDED_WHEN_SET`` at their defaults)."""
    return {
        k: v
        for k, v in dataclasses.asdict(options).items()
        if k not in IGNORED_OPTIONS and not (k in RECORDED_WHEN_SET and v == RECORDED_WHEN_SET[k])
    }


@dataclass(frozen=True)
class Layout:
    """What a network was trained on: the table, and the observation and action layout.

    Attributes:
        variant: variant name (``stud``, ``razz``...).
        num_players: seats at the table.
        env_kwargs: the options given to ``envs.make_raw`` (rebuilds the env).
        options: every resolved option of the game (compared with the table's).
        env_id: versioned env id (``stud_v0``).
        obs_size: observation vector length.
        pieces: (name, size) of each observation piece, in order.
        action_names: the action space, in index order.
    """

    variant: str
    num_players: int
    env_kwargs: dict[str, Any]
    options: dict[str, Any]
    env_id: str
    obs_size: int
    pieces: tuple[tuple[str, int], ...]
    action_names: tuple[str, ...]

    def card_groups(self) -> list[tuple[str, list[int]]]:
        """The card groups (:func:`~agents.features.piece_card_groups`) of the env this
        layout describes: built once for a new network, then stored with its architecture."""
        return piece_card_groups(make_raw(self.variant, self.num_players, **self.env_kwargs).pieces)

    @classmethod
    def of_env(cls, env: DealersChoiceEnv, env_kwargs: dict[str, Any]) -> Layout:
        """The layout of a built env (``env_kwargs``: what it was built with)."""
        return cls(
            variant=env.variant.name,
            num_players=env.game.num_players,
            env_kwargs=dict(env_kwargs),
            options=resolved_options(env.game.options),
            env_id=str(env.metadata["name"]),
            obs_size=env.tracker.size,
            pieces=tuple((p.name, p.size) for p in env.pieces),
            action_names=tuple(env.action_names),
        )

    @classmethod
    def build(cls, variant: str, num_players: int, env_kwargs: dict[str, Any]) -> Layout:
        """The layout the current code gives this table."""
        return cls.of_env(make_raw(variant, num_players, **env_kwargs), env_kwargs)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (lists and dicts) for a checkpoint."""
        data = dataclasses.asdict(self)
        data["pieces"] = [list(p) for p in self.pieces]
        data["action_names"] = list(self.action_names)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Layout:
        """Inverse of :meth:`to_dict`."""
        return cls(
            variant=str(data["variant"]),
            num_players=int(data["num_players"]),
            env_kwargs=dict(data["env_kwargs"]),
            options=dict(data["options"]),
            env_id=str(data["env_id"]),
            obs_size=int(data["obs_size"]),
            pieces=tuple((str(n), int(s)) for n, s in data["pieces"]),
            action_names=tuple(str(a) for a in data["action_names"]),
        )

    def describe(self) -> str:
        """``stud_v0, 2 players`` and the options that differ from the variant's defaults."""
        return f"{self.env_id}, {self.num_players} players" + (
            f", options {self.env_kwargs}" if self.env_kwargs else ""
        )

    def mismatch(self, other: Layout, *, strict_options: bool = True) -> str | None:
        """Why a network trained on ``self`` cannot play ``other`` (None: it can)."""
        if (self.variant, self.num_players) != (other.variant, other.num_players):
            return f"it was trained for {self.describe()}, not {other.describe()}"
        if self.env_id != other.env_id or self.pieces != other.pieces or self.obs_size != other.obs_size:
            return (
                f"the observation layout differs (trained: {self.env_id}, {self.obs_size} floats; "
                f"now: {other.env_id}, {other.obs_size} floats); the env code changed since training"
            )
        if self.action_names != other.action_names:
            return (
                f"the action layout differs (trained: {len(self.action_names)} actions, now {len(other.action_names)})"
            )
        if strict_options and self.options != other.options:
            return f"the options differ (option: (trained, now)): {options_diff(self.options, other.options)}"
        return None

    def api_advice(self, other: Layout) -> str:
        """The API's way out of :meth:`mismatch` when only the options differ (empty
        otherwise). Kept apart from the problem itself so that each caller names its own
        fix: the API ``strict_options``, a command line its ``--option`` flags."""
        if self.mismatch(other, strict_options=False) is None and self.options != other.options:
            if any(option_value(self.options, k) != option_value(other.options, k) for k in OBSERVATION_OPTIONS):
                return "; that option changes the observation, so the table must have the network's value"
            return STRICT_HINT
        return ""


class NeuralAgent(Agent):
    """Plays a :class:`PolicyNet`: samples from the masked policy, or (``greedy``) takes
    the most likely legal action.

    Args:
        net: the trained network.
        layout: the table it was trained for; acting elsewhere raises :class:`LayoutError`.
        greedy: argmax instead of sampling (deterministic evaluation).
        seed: seeds the sampling generator (``seed()`` reseeds it).
        strict_options: refuse tables whose options differ from the training table's.
        name: label in match tables.
    """

    def __init__(
        self,
        net: PolicyNet,
        layout: Layout,
        *,
        greedy: bool = False,
        seed: int | None = None,
        strict_options: bool = True,
        name: str = "ppo",
    ) -> None:
        super().__init__(seed)
        if net.obs_size != layout.obs_size or net.num_actions != len(layout.action_names):
            raise LayoutError(
                f"network shape ({net.obs_size} inputs, {net.num_actions} actions) does not match the layout "
                f"({layout.obs_size} inputs, {len(layout.action_names)} actions)"
            )
        self.net = net.eval()
        self.layout = layout
        self.greedy = greedy
        self.strict_options = strict_options
        self.name = name
        self.generator = torch.Generator()
        self.seed(seed)
        self._checked: dict[int, Any] = {}  # option objects already found compatible, by id

    def seed(self, seed: int | None) -> None:
        """Reseed the sampling (None: from the operating system)."""
        super().seed(seed)
        if seed is None:
            self.generator.seed()
        else:
            self.generator.manual_seed(int(seed))

    def check_table(self, view: PublicView) -> None:
        """Raise :class:`LayoutError` unless ``view`` comes from a table like the training one."""
        if self._checked.get(id(view.options)) is view.options and view.variant == self.layout.variant:
            return
        here = {"variant": view.variant, "num_players": view.num_players}
        trained = {"variant": self.layout.variant, "num_players": self.layout.num_players}
        if here != trained:
            raise LayoutError(
                f"this network was trained for {self.layout.describe()}; it cannot play {view.variant} "
                f"with {view.num_players} players"
            )
        if self.strict_options and resolved_options(view.options) != self.layout.options:
            current = Layout(**{**dataclasses.asdict(self.layout), "options": resolved_options(view.options)})
            problem = self.layout.mismatch(current)
            raise LayoutError(f"this network cannot play this table: {problem}{self.layout.api_advice(current)}")
        self._checked[id(view.options)] = view.options  # holding it keeps the id from being reused

    def act(self, observation: Observation, view: PublicView) -> int:
        return self.act_batch([observation], [view])[0]

    def act_batch(self, observations: Sequence[Observation], views: Sequence[PublicView]) -> list[int]:
        """One forward pass for many tables."""
        logits, mask = self._logits(observations, views)
        actions, _ = choose(logits, mask, greedy=self.greedy, generator=self.generator)
        return [int(a) for a in actions]

    def action_probabilities(self, observations: Sequence[Observation], views: Sequence[PublicView]) -> np.ndarray:
        """(B, actions) probabilities of the masked policy at each decision: what
        :meth:`act_batch` samples from (exact exploitability tabulates these)."""
        logits, mask = self._logits(observations, views)
        return log_probs(logits, mask).exp().double().numpy()

    def _logits(
        self, observations: Sequence[Observation], views: Sequence[PublicView]
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """The network's logits and the legal-action masks of a batch of decisions."""
        for view in views:
            if view is not None:
                self.check_table(view)
        obs = np.stack([o["observation"] for o in observations]).astype(np.float32, copy=False)
        if obs.shape[1] != self.layout.obs_size:
            raise LayoutError(
                f"observation has {obs.shape[1]} floats; this network was trained on {self.layout.obs_size} "
                f"({self.layout.describe()})"
            )
        mask = np.stack([o["action_mask"] for o in observations])
        cands = self.candidate_rows(mask, views)
        with torch.inference_mode():
            obs_t = torch.from_numpy(obs)
            logits = self.net.logits(obs_t) if cands is None else self.net.logits(obs_t, torch.from_numpy(cands))
        return logits, torch.from_numpy(mask)

    def candidate_rows(self, masks: np.ndarray, views: Sequence[PublicView | None]) -> np.ndarray | None:
        """The candidate feature rows (:mod:`agents.candidates`) of the decisions that
        need them, from the seats' public views; None when none does."""
        slots = self.net.candidates
        rows = np.flatnonzero(needs_candidates(masks, slots))
        if slots is None or not len(rows):
            return None
        out = np.zeros((len(masks), slots[1] - slots[0], CANDIDATE_FEATURES), np.float32)
        for i in rows:
            view = views[i]
            if view is None:
                raise ValueError(
                    "this network scores candidate choices (declarations, splits, draws) from the public view; "
                    "call act(observation, view) with env.public_view(agent)"
                )
            out[i] = candidate_features(view, slots, self.rng)
        return out

    def __repr__(self) -> str:
        return f"NeuralAgent({self.layout.describe()}, greedy={self.greedy})"
