"""Single-agent Gymnasium environments: one learner seat against bots.

``gymnasium.make("DealersChoice/Cowpie-v0", num_players=3, opponents=["call", "random"])``
(ids in :mod:`envs.gym_registry`) builds a :class:`DealersChoiceGymEnv` over the same
raw PettingZoo AEC env as ``envs.make_raw``. The learner is one seat; ``step`` applies
the learner's action, then lets the opponents act until the learner must act again or
the episode ends. Everything the caller gets is the learner's own:

* **observation**: the learner's ``{"observation", "action_mask"}`` (the AEC's dict);
  at the end of an episode the learner's final observation, mask all zeros;
* **reward**: the learner's reward over the whole transition, including the end of the
  episode when it comes on an opponent's move (never an opponent's reward);
* **terminated / truncated**: Gymnasium 1.x semantics, copied from the AEC's
  ``terminations`` / ``truncations`` of the learner (Cowboy's ``max_deals`` is a
  truncation: the game was cut short, not finished by the rules);
* **info**: ``legal_actions`` (names, in mask order), ``learner_seat``, ``agent``,
  ``button``; on reset also ``skipped_deals`` / ``skipped_reward`` (below); at the
  end the learner's ``history`` (the hand as the learner saw it, a
  :class:`~envs.seat_history.SeatHistory`; the replay record is ``self.aec.hand_record()``).

Seats: ``learner_seat="rotate"`` (default) moves the learner one seat clockwise each
episode, and one more every ``n`` episodes: the button (option ``button="rotate"``)
moves one seat per deal, so without the extra step the learner would always sit at
the same distance from it. ``n * n`` episodes without skipped deals (below) cover
every (seat, distance from the button) pair once;
``"random"`` draws a seat from the env's generator; an int fixes the seat.
``opponents[k]`` sits ``k + 1`` seats to the learner's left, so the table keeps its
order as the learner moves.

Illegal actions: an action outside the learner's mask raises the engine's
:class:`~envs.engine.errors.IllegalActionError` and changes nothing (the learner may
try again). ``illegal_action="lose"`` chooses the AEC's alternative instead: the
episode ends and the learner gets -1. Nothing is ever remapped. An opponent bot that
plays an illegal action always raises (it is a bug in the bot).

Deals where the learner has no decision (everyone folds to the big blind, or the
learner is all-in from the antes) have nothing to learn from and cannot be returned
by Gymnasium's ``reset`` (there is no action to ask for): ``reset`` plays them out
and deals again. ``info["skipped_deals"]`` counts them and ``info["skipped_reward"]``
holds the learner's result in them, so an evaluation can add it back (or use
``evaluation.run_match``, which plays every deal).
"""

from __future__ import annotations

import importlib
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any, SupportsFloat

import gymnasium
import numpy as np

from envs.aec import RENDER_FPS, DealersChoiceEnv
from envs.engine.cards import JOKER, parse_deck
from envs.engine.options import check_choice, check_int, check_seat, check_seed, quoted
from envs.policy import Policy, Seating
from envs.policy import describe as describe_bot
from envs.registry import get_spec, make_raw
from envs.variants import get_variant

Observation = dict[str, np.ndarray]
RESET_OPTIONS = ("deck", "button", "learner_seat")
DEFAULT_LOADER = "agents:load"  # bots by spec: the project's loader, named (envs never import agents)
MAX_REDEALS = 1_000  # a table where the learner never gets a decision is a setup error


class DealersChoiceGymEnv(gymnasium.Env[Observation, int]):
    """One learner seat of a Dealer's Choice variant as a Gymnasium env.

    Args:
        variant: variant name (``"cowpie"``) or PettingZoo id (``"cowpie_v0"``).
        num_players: players at the table (default: the variant's fewest).
        opponents: ``None`` (random bots), one bot or ``agents.load`` spec for every
            opponent seat, or a list of ``num_players - 1`` of them. A spec string
            gives each seat its own bot; one bot object given once plays every seat.
        policy_loader: what turns a spec string into a bot: a ``"module:function"``
            name (the Gymnasium entry-point idiom; default ``"agents:load"``, the
            project's bots) or a callable ``(spec) -> bot``. The env layer takes bots
            through :class:`~envs.policy.Policy` and never imports bot code itself.
        learner_seat: ``"rotate"``, ``"random"`` or a fixed seat index.
        illegal_action: ``"raise"`` (default) or ``"lose"`` (see the module docs).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the learner's view of
            the table as text), ``"rgb_array"`` (a picture of it: an ``(H, W, 3)`` uint8
            array, see :mod:`envs.render`) or ``"human"`` (the text, printed after every
            reset and step).
        **options: the variant's options and the AEC's ``omniscient_render``.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium's class attribute)
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": RENDER_FPS,
    }

    def __init__(
        self,
        variant: str,
        num_players: int | None = None,
        *,
        opponents: str | Policy | Sequence[str | Policy] | None = None,
        policy_loader: str | Callable[[str], Policy] = DEFAULT_LOADER,
        learner_seat: int | str = "rotate",
        illegal_action: str = "raise",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        n = num_players if num_players is not None else get_variant(get_spec(variant).variant).seats[0]
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        self.aec: DealersChoiceEnv = make_raw(variant, n, illegal_action=illegal_action, **options)
        self.num_players = n
        self.render_mode = render_mode
        self.learner_seat_option = _check_learner_seat(learner_seat, n)
        self.opponents: list[Policy] = _load_opponents(opponents, n, policy_loader)
        self.observation_space = self.aec.observation_space("player_0")
        self.action_space = self.aec.action_space("player_0")
        self.metadata = {**self.metadata, "name": self.aec.metadata["name"]}
        self._episode = self._deals = 0
        self._needs_seed = True
        self._aec_seed: int | None = None
        self._learner = 0
        self._seating = Seating([None] * n)
        self._over = True
        self._mask = np.zeros(self.aec.game.num_actions, np.int8)

    # ------------------------------------------------------------------ reset
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new episode and play the opponents up to the learner's first decision.

        ``options``: ``deck`` (stacked deck, top card first), ``button`` and
        ``learner_seat`` for this episode only. A seed restarts everything derived
        from it: the deck, the opponents' own randomness, and the learner and button
        rotation, which starts at a point derived from the seed (seeds ``0 .. n*n - 1``
        give every pair of learner seat and button once), so ``reset(seed=s)`` is
        deterministic (Gymnasium's contract) and a loop that seeds every episode still
        rotates both. ``seed`` (None or an int >= 0, numpy ints too) and ``options``
        are checked before anything changes: a bad one raises and changes nothing."""
        seed = check_seed(seed)
        options = _check_reset_options(options, self.num_players, JOKER in self.aec.game.deck)
        super().reset(seed=seed)
        if seed is not None or self._needs_seed:
            self._reseed(seed)
        self._learner = options["learner_seat"] if "learner_seat" in options else self._next_learner_seat()
        self._seat_opponents()
        self._episode += 1
        skipped, skipped_reward = self._deal_until_learner_acts(
            {k: options[k] for k in ("deck", "button") if k in options}
        )
        observation, info = self._observe(), self._info()
        info.update(skipped_deals=skipped, skipped_reward=skipped_reward)
        self._render_human()
        return observation, info

    def _reseed(self, seed: int | None) -> None:
        """Seed the AEC env and every opponent from this env's generator; the rotation
        starts where the seed says (see :meth:`reset`)."""
        self._needs_seed = False
        self._episode = self._deals = 0 if seed is None else seed % (self.num_players**2)
        self._aec_seed = int(self.np_random.integers(2**63))
        seeded: set[int] = set()
        for bot in self.opponents:
            if id(bot) not in seeded:
                Seating([bot]).seed([int(self.np_random.integers(2**31))])
                seeded.add(id(bot))

    def _next_learner_seat(self) -> int:
        n, choice = self.num_players, self.learner_seat_option
        if isinstance(choice, int):
            return choice
        if choice == "random":
            return int(self.np_random.integers(n))
        return (self._episode + self._episode // n) % n  # every seat, every distance from the button

    def _button_rotates(self) -> bool:
        return getattr(self.aec.game.options, "button", "rotate") == "rotate"

    def _seat_opponents(self) -> None:
        n = self.num_players
        seated: list[Policy | None] = [None] * n
        names = [""] * n
        for k, bot in enumerate(self.opponents):
            seat = (self._learner + 1 + k) % n
            seated[seat] = bot
            names[seat] = f"opponent {describe_bot(bot)}"
        self._seating = Seating(seated, names)

    def _deal_until_learner_acts(self, aec_options: dict[str, Any]) -> tuple[int, float]:
        """Reset the AEC env until the learner has a decision; returns the deals
        skipped and the learner's reward in them."""
        skipped, skipped_reward = 0, 0.0
        for _ in range(MAX_REDEALS):
            button = {"button": self._deals % self.num_players} if self._button_rotates() else {}
            hand = {"hand": self._deals}  # a rotation of games (dealer's choice) follows the deals too
            self._deals += 1  # the button moves on after a skipped deal too, as at a real table
            self.aec.reset(seed=self._aec_seed, options={**button, **hand, **aec_options})
            self._aec_seed = None  # a seed restarts the deck once; later deals continue
            self._seating.reset()
            self._over = False
            reward = self._play_opponents()
            if not self._over:
                return skipped, skipped_reward
            if "deck" in aec_options:
                raise ValueError("the stacked deck ends the deal before the learner's first decision")
            skipped, skipped_reward = skipped + 1, skipped_reward + reward
        raise RuntimeError(
            f"the learner (seat {self._learner}) had no decision in {MAX_REDEALS} deals: check the stacks and antes"
        )

    # ------------------------------------------------------------------- step
    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Apply the learner's action, then play the opponents until the learner must
        act again or the episode ends."""
        if self._over:
            raise RuntimeError("the episode is over: call reset() before step()")
        try:
            index = operator.index(action)
        except TypeError:
            raise TypeError(f"the action must be an integer index, got {quoted(action)}") from None
        learner = self.learner_agent
        self.aec.step(index)  # IllegalActionError (state unchanged) unless illegal_action="lose"
        reward = self.aec.rewards[learner]
        if self._episode_ended():
            self._over = True
        else:
            reward += self._play_opponents()
        observation, info = self._observe(), self._info()
        terminated, truncated = self.aec.terminations[learner], self.aec.truncations[learner]
        self._render_human()
        return observation, float(reward), bool(terminated), bool(truncated), info

    def _play_opponents(self) -> float:
        """Let the opponents act until it is the learner's turn or the episode ends;
        returns the learner's reward over those moves."""
        learner, aec = self.learner_agent, self.aec
        reward = 0.0
        while not self._episode_ended():
            agent = aec.agent_selection
            if agent == learner:
                return reward
            seat = aec.agent_name_mapping[agent]
            action = self._seating.act(seat, aec.observe(agent), aec.public_view(agent))
            aec.step(action)
            reward += aec.rewards[learner]
        self._over = True
        return reward

    def _episode_ended(self) -> bool:
        learner = self.learner_agent
        return bool(self.aec.terminations[learner] or self.aec.truncations[learner])

    # ---------------------------------------------------------- observations
    @property
    def learner_agent(self) -> str:
        """The learner's agent name this episode (``player_<seat>``)."""
        return self.aec.possible_agents[self._learner]

    @property
    def learner_seat(self) -> int:
        """The learner's seat this episode."""
        return self._learner

    def _observe(self) -> Observation:
        observation = self.aec.observe(self.learner_agent)
        self._mask = observation["action_mask"]
        if self._over:  # nothing is legal after the end (the AEC still masks an illegal-action loser's seat)
            self._mask[:] = 0
        return {"observation": observation["observation"], "action_mask": self._mask.copy()}

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as an int8 0/1 vector (sb3-contrib's
        ``MaskablePPO`` calls this; it equals ``observation["action_mask"]``)."""
        return self._mask.copy()

    def _info(self) -> dict[str, Any]:
        aec_info = self.aec.infos[self.learner_agent]
        info: dict[str, Any] = {
            "legal_actions": list(aec_info.get("legal_actions", [])) if not self._over else [],
            "learner_seat": self._learner,
            "agent": self.learner_agent,
            "button": self.aec.state.button if self.aec.state is not None else None,
        }
        for key in ("history", "illegal_action"):
            if self._over and key in aec_info:
                info[key] = aec_info[key]
        return info

    # ----------------------------------------------------------------- render
    def render(self) -> str | np.ndarray | None:
        """The table as the learner sees it (``omniscient_render=True``: every card):
        text (``"ansi"``), a picture (``"rgb_array"``) or printed text (``"human"``)."""
        if self.render_mode is None:
            gymnasium.logger.warn(
                "render() called without a render_mode; pass render_mode='ansi', 'rgb_array' or 'human'"
            )
            return None
        if self.render_mode == "rgb_array":
            return self.aec.render_rgb(self._viewer())
        text = self._render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def _viewer(self) -> int | None:
        return None if self.aec.omniscient_render else self._learner

    def _render_text(self) -> str:
        return self.aec.render_text(self._viewer())

    def _render_human(self) -> None:
        if self.render_mode == "human":
            print(self._render_text())

    def close(self) -> None:
        self.aec.close()


def _check_learner_seat(value: Any, num_players: int) -> int | str:
    if isinstance(value, str):
        check_choice("learner_seat", value, ("rotate", "random"))
    else:
        check_int("learner_seat", value, 0, num_players - 1)
    return value


def _check_reset_options(options: Any, num_players: int, joker: bool = False) -> dict[str, Any]:
    """Reset's options, checked (the deck parsed to card ints) before anything changes."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(
            f"reset options={quoted(options)} is not allowed: expected None or a dict with keys "
            f"{', '.join(RESET_OPTIONS)}"
        )
    options = dict(options)
    unknown = sorted(set(options) - set(RESET_OPTIONS), key=repr)
    if unknown:
        raise ValueError(f"unknown reset option {quoted(unknown[0])}; known: {', '.join(RESET_OPTIONS)}")
    for name in ("learner_seat", "button"):
        if name in options:
            options[name] = check_seat(name, options[name], num_players)
    if options.get("deck") is None:
        options.pop("deck", None)  # deck=None: an ordinary shuffle, as if not given
    else:
        options["deck"] = parse_deck(options["deck"], joker=joker)  # the joker only where wild cards deal it
    return options


def _load_opponents(
    spec: str | Policy | Sequence[str | Policy] | None, num_players: int, loader: str | Callable[[str], Policy]
) -> list[Policy]:
    """One bot per opponent seat (``num_players - 1``) from a spec, a bot or a list."""
    count = num_players - 1
    if spec is None:
        spec = "random"
    if isinstance(spec, str | Policy):
        specs: list[str | Policy] = [spec] * count
    elif isinstance(spec, Sequence):
        specs = list(spec)
        if len(specs) != count:
            raise ValueError(
                f"opponents: got {len(specs)} bots for {count} opponent seats (num_players - 1 = {count}); "
                "give one spec or bot for all of them, or a list of exactly that many"
            )
    else:
        raise ValueError(f"opponents must be a bot spec, a bot or a list of them, got {type(spec).__name__}")
    load = resolve_loader(loader) if any(isinstance(s, str) for s in specs) else None
    bots = []
    for s in specs:
        if isinstance(s, str):
            assert load is not None
            s = load(s)
        if not isinstance(s, Policy):
            raise ValueError(f"opponents: {type(s).__name__} is not a bot: it has no act(observation, view) method")
        bots.append(s)
    return bots


def resolve_loader(loader: str | Callable[[str], Policy]) -> Callable[[str], Policy]:
    """The callable a ``"module:function"`` name refers to (imported here, by name)."""
    if callable(loader):
        return loader
    module_name, _, attr = str(loader).partition(":")
    try:
        return getattr(importlib.import_module(module_name), attr)  # type: ignore[no-any-return]
    except (ImportError, AttributeError, ValueError) as err:
        raise ValueError(f"policy_loader={quoted(loader)} names no function ('module:function'): {err}") from None
