"""Any bot as a tabular policy on toy stud, by asking it at every information set.

:func:`bot_policy` turns a bot (anything ``agents.load`` returns) into the callable
policy :func:`solvers.policy.tabulate` queries: for each information set it builds the
observation and public view the real env gives that seat there, and asks the bot for
action probabilities.

How the observations are made (exact, and checked):

* one env replay per *public node* (round, up cards, betting so far): the deck is
  stacked with the node's cards (``reset(options={"deck": ..., "button": 0})``, seat 0
  holds the button as in the solvers) and the node's actions are stepped through the
  env; the replay checks that the env's seat to act, its cards and its legal actions
  are the information set's;
* the information sets of one public node differ only in the acting seat's down card,
  which the env shows that seat in slot 0 of the ``own_cards`` piece (a one-hot
  card), in ``PublicView.own_cards[0]`` and in the view's deal event of that card. The other down cards of the
  node are written there; a test compares this with a full replay of every
  information set of small games.

How the probabilities are read, by kind of bot:

* a bot with ``action_probabilities(observations, views) -> (B, actions)``
  (:class:`~agents.neural.NeuralAgent`: the network's masked softmax, one batched
  forward pass; :class:`~agents.base.RandomAgent`: uniform over the legal actions) is
  read exactly;
* any other bot (the heuristic, a user's class) is *sampled*: ``samples`` calls of
  ``act`` per information set, the bot reseeded with ``seed + index`` first, so the
  table is deterministic. With ``samples=1`` (the default) a stochastic bot is read as
  the pure strategy it plays with that seed at each information set; a deterministic
  bot is read exactly either way; more samples estimate a mixed bot's frequencies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from envs.aec import DealersChoiceEnv
from envs.engine.events import EventKind
from envs.engine.options import OBSERVATION_OPTIONS  # not the solvers' game: taken from the network
from envs.registry import make_raw
from envs.view import PublicView
from solvers.exploit import Exploitability, exploitability
from solvers.infosets import InfoSetBatch, InfoSets
from solvers.policy import TabularPolicy, tabulate
from solvers.toy import NUM_ACTIONS, ToyParams
from solvers.tree import PublicTree

TOY_OPTIONS = ("ranks", "suits", "streets", "ante", "small_bet", "big_bet", "raise_cap")
"""ToyParams fields, which the env's toy_stud options spell the same way."""

Observation = dict[str, np.ndarray]


def env_options(params: ToyParams, observe: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The toy_stud env options of a solver game (button fixed: seat 0 holds it), plus
    the observation options ``observe``."""
    return {**{name: getattr(params, name) for name in TOY_OPTIONS}, **observation_options(observe or {})}


def toy_game(options: Mapping[str, Any]) -> tuple[ToyParams, dict[str, Any]]:
    """A toy_stud table's options split into the solvers' game (the ``TOY_OPTIONS``)
    and the observation options a network at that table sees."""
    params = ToyParams.from_options({k: v for k, v in options.items() if k in TOY_OPTIONS})
    return params, observation_options(options)


def observation_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The observation options set in ``options`` (an env's options, or a network's
    layout), the ones left at their default left out."""
    return {name: options[name] for name in sorted(OBSERVATION_OPTIONS) if options.get(name)}


def bot_observation(bot: Any) -> dict[str, Any]:
    """The observation options a bot was trained with (a network's layout; none for
    other bots), so that it is asked with the observation it knows."""
    layout = getattr(bot, "layout", None)
    return observation_options(getattr(layout, "options", {}) or {})


def make_toy_env(params: ToyParams, observe: Mapping[str, Any] | None = None) -> DealersChoiceEnv:
    """A heads-up toy_stud env with exactly these options."""
    return make_raw("toy_stud", 2, **env_options(params, observe))


class InfoSetReplayer:
    """Observations and public views of information sets, from env replays
    (``observe``: the env's observation options)."""

    def __init__(self, params: ToyParams, observe: Mapping[str, Any] | None = None) -> None:
        self.params = params
        self.env = make_toy_env(params, observe)
        self.deck = params.engine_cards().astype(int).tolist()
        offset = 0
        for piece in self.env.pieces:
            if piece.name == "own_cards":
                break
            offset += piece.size
        else:
            raise AssertionError("toy_stud observations have no own_cards piece")  # a bug, not bad input
        self.down_offset = offset  # slot 0 of own_cards: the down card's one-hot

    def stacked_deck(self, batch: InfoSetBatch, i: int) -> list[int]:
        """Top card first, in the env's dealing order: each street one card to seat 1
        (left of the button), then seat 0; the first street deals the down cards first."""
        seat = int(batch.seat[i])
        k = int(batch.betting_round[i])
        down = int(batch.down[i])
        ups = {seat: batch.own_up[i, : k + 1], 1 - seat: batch.opp_up[i, : k + 1]}
        used = {down, *(int(c) for c in ups[0]), *(int(c) for c in ups[1])}
        other_down = next(c for c in self.deck if c not in used)  # never shown to the seat
        downs = {seat: down, 1 - seat: other_down}
        deck = [downs[1], downs[0]]
        for street in range(k + 1):
            deck += [int(ups[1][street]), int(ups[0][street])]
        return deck

    def replay(self, batch: InfoSetBatch, i: int) -> tuple[Observation, PublicView]:
        """The acting seat's observation and view at information set row ``i``."""
        env = self.env
        env.reset(options={"deck": self.stacked_deck(batch, i), "button": 0})
        for a in range(int(batch.num_actions[i])):
            expected = env.possible_agents[int(batch.action_seat[i, a])]
            if env.agent_selection != expected:
                raise AssertionError(f"replay of row {i}: {env.agent_selection} acts, not {expected}")
            env.step(int(batch.action[i, a]))
        agent = env.agent_selection
        self._check(batch, i)
        return env.observe(agent), env.public_view(agent)

    def _check(self, batch: InfoSetBatch, i: int) -> None:
        """The env reached the information set (a mismatch is a bug, never bad input)."""
        st = self.env.state
        assert st is not None
        seat = int(batch.seat[i])
        k = int(batch.betting_round[i])
        own = [int(batch.down[i]), *(int(c) for c in batch.own_up[i, : k + 1])]
        legal = np.zeros(len(self.env.action_names), dtype=bool)
        legal[:NUM_ACTIONS] = batch.legal[i]
        got_legal = np.zeros_like(legal)
        got_legal[st.legal_actions()] = True
        if st.current_seat != seat or list(st.cards[seat]) != own or not np.array_equal(legal, got_legal):
            raise AssertionError(
                f"replay of information set {int(batch.index[i])} reached seat {st.current_seat} with cards "
                f"{list(st.cards[seat])} and legal {np.flatnonzero(got_legal)}; expected seat {seat}, {own}, "
                f"{np.flatnonzero(legal)}"
            )

    def with_down(self, obs: Observation, view: PublicView, old: int, new: int) -> tuple[Observation, PublicView]:
        """The same public node seen with another down card."""
        vector = obs["observation"].copy()
        vector[self.down_offset + old] = 0.0
        vector[self.down_offset + new] = 1.0
        cards = (new, *view.own_cards[1:])
        events = tuple(
            e._replace(cards=(new,)) if e.kind == EventKind.DEAL and e.seat == view.seat and e.cards == (old,) else e
            for e in view.events
        )
        view = dataclasses.replace(view, own_cards=cards, events=events)
        return {"observation": vector, "action_mask": obs["action_mask"]}, view

    def observations(self, batch: InfoSetBatch, *, full: bool = False) -> tuple[list[Observation], list[PublicView]]:
        """Observation and view of every row: one replay per public node (``full``: one
        per row, the reference the fast way is tested against)."""
        observations: list[Observation] = []
        views: list[PublicView] = []
        node: tuple[Any, ...] | None = None
        base: tuple[Observation, PublicView, int] | None = None
        for i in range(len(batch)):
            key = self.public_key(batch, i)
            if full or key != node or base is None:
                obs, view = self.replay(batch, i)
                node, base = key, (obs, view, int(batch.down[i]))
            else:
                obs, view = self.with_down(base[0], base[1], base[2], int(batch.down[i]))
            observations.append(obs)
            views.append(view)
        return observations, views

    @staticmethod
    def public_key(batch: InfoSetBatch, i: int) -> tuple[Any, ...]:
        """Everything but the down card: rows with equal keys share a public node."""
        m = int(batch.num_actions[i])
        return (
            int(batch.seat[i]),
            batch.own_up[i].tobytes(),
            batch.opp_up[i].tobytes(),
            batch.action_seat[i, :m].tobytes(),
            batch.action[i, :m].tobytes(),
        )


def bot_probabilities(
    bot: Any,
    observations: list[Observation],
    views: list[PublicView],
    *,
    index: np.ndarray,
    samples: int = 1,
    seed: int = 0,
) -> np.ndarray:
    """(B, actions) probabilities of a bot's choice at each decision (module docstring)."""
    if hasattr(bot, "action_probabilities"):
        return np.asarray(bot.action_probabilities(observations, views), dtype=np.float64)
    if not hasattr(bot, "seed"):
        raise ValueError(
            f"{type(bot).__name__} has neither action_probabilities() nor seed(): its choices cannot be "
            "tabulated reproducibly"
        )
    width = len(observations[0]["action_mask"]) if observations else NUM_ACTIONS
    out = np.zeros((len(observations), width))
    for row, (obs, view) in enumerate(zip(observations, views, strict=True)):
        bot.seed(seed + int(index[row]))
        for _ in range(samples):
            out[row, int(bot.act(obs, view))] += 1.0
    return out / samples


def bot_policy(params: ToyParams, bot: Any, *, samples: int = 1, seed: int = 0) -> Callable[[InfoSetBatch], np.ndarray]:
    """A :data:`~solvers.policy.PolicyFn` asking ``bot`` at every information set, with
    the observation it was trained with (:func:`bot_observation`)."""
    if samples < 1:
        raise ValueError(f"samples={samples} is not allowed: expected an int >= 1")
    replayer = InfoSetReplayer(params, bot_observation(bot))

    def policy(batch: InfoSetBatch) -> np.ndarray:
        if not len(batch):
            return np.zeros((0, NUM_ACTIONS))
        observations, views = replayer.observations(batch)
        probs = bot_probabilities(bot, observations, views, index=batch.index, samples=samples, seed=seed)
        outside = probs[:, NUM_ACTIONS:]
        if outside.size and (outside > 0).any():
            raise ValueError(f"{type(bot).__name__} chose an action toy stud never allows (a declaration)")
        return probs[:, :NUM_ACTIONS]

    return policy


def bot_table(
    params: ToyParams,
    bot: Any,
    *,
    infosets: InfoSets | None = None,
    samples: int = 1,
    seed: int = 0,
    batch_size: int = 4096,
) -> TabularPolicy:
    """The whole table of a bot on one game (batches keep the observations small)."""
    infosets = infosets if infosets is not None else InfoSets(PublicTree(params))
    return tabulate(infosets, bot_policy(params, bot, samples=samples, seed=seed), batch_size=batch_size)


class ObservationCache:
    """Every information set's observation, kept for repeated measurements of networks
    (the trainer's ``eval/nash_conv``): one row per *public node* plus, per information
    set, its node and down card, so the default toy (2.86M information sets, about
    350k public nodes) takes about 0.6 GB instead of 5 GB. Built once, with the same
    replays as :meth:`InfoSetReplayer.observations` (``observe``: the env's observation options)."""

    def __init__(
        self,
        params: ToyParams,
        infosets: InfoSets,
        *,
        observe: Mapping[str, Any] | None = None,
        batch_size: int = 65536,
    ) -> None:
        self.params = params
        self.infosets = infosets
        replayer = InfoSetReplayer(params, observe)
        self.env = replayer.env
        self.down_offset = replayer.down_offset
        nodes: list[np.ndarray] = []
        masks: list[np.ndarray] = []
        self.row_node = np.empty(infosets.count, dtype=np.int64)
        self.row_down = np.empty(infosets.count, dtype=np.int64)
        node_down: list[int] = []
        for start in range(0, infosets.count, batch_size):
            batch = infosets.batch(start, min(start + batch_size, infosets.count))
            key: tuple[Any, ...] | None = None
            for i in range(len(batch)):
                row_key = replayer.public_key(batch, i)
                if row_key != key:
                    obs, _ = replayer.replay(batch, i)
                    nodes.append(obs["observation"])
                    masks.append(obs["action_mask"])
                    node_down.append(int(batch.down[i]))
                    key = row_key
                self.row_node[start + i] = len(nodes) - 1
            self.row_down[start : start + len(batch)] = batch.down
        self.node_obs = np.stack(nodes).astype(np.float32)
        self.node_mask = np.stack(masks)
        self.node_down = np.asarray(node_down, dtype=np.int64)

    def rows(self, start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
        """(observations, action masks) of information sets ``start .. stop - 1``."""
        node = self.row_node[start:stop]
        obs = self.node_obs[node]
        row = np.arange(len(node))
        obs[row, self.down_offset + self.node_down[node]] = 0.0
        obs[row, self.down_offset + self.row_down[start:stop]] = 1.0
        return obs, self.node_mask[node]


def network_table(cache: ObservationCache, net: Any, *, batch_size: int = 65536) -> TabularPolicy:
    """The masked-softmax table of a :class:`~agents.nets.PolicyNet` (no candidate
    choices in toy stud) over every information set of the cache's game."""
    import torch

    from agents.nets import log_probs

    table = np.zeros((cache.infosets.count, NUM_ACTIONS))
    device = next(net.parameters()).device  # a learner training on a GPU is read where it is
    with torch.inference_mode():
        for start in range(0, cache.infosets.count, batch_size):
            stop = min(start + batch_size, cache.infosets.count)
            obs, mask = cache.rows(start, stop)
            obs_t, mask_t = torch.from_numpy(obs).to(device), torch.from_numpy(mask).to(device)
            probs = log_probs(net.logits(obs_t), mask_t).exp()
            table[start:stop] = probs[:, :NUM_ACTIONS].double().cpu().numpy()
    return TabularPolicy(cache.params, table, infosets=cache.infosets)


class NashConvProbe:
    """Exact NashConv of a network on one toy game, again and again (the trainer's
    ``eval/nash_conv``): the tree, the information sets and the observations are built
    on the first call and reused (``observe``: the observation options the network
    was trained with)."""

    def __init__(self, params: ToyParams, observe: Mapping[str, Any] | None = None) -> None:
        self.params = params
        self.observe = dict(observe or {})
        self._cache: ObservationCache | None = None

    def __call__(self, net: Any) -> Exploitability:
        if self._cache is None:
            self._cache = ObservationCache(self.params, InfoSets(PublicTree(self.params)), observe=self.observe)
        policy = network_table(self._cache, net)
        return exploitability(policy, self._cache.infosets.tree, with_values=False)
