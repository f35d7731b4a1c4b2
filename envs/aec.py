"""The PettingZoo AEC environment shared by every variant: it only translates.

The engine holds the rules; this class turns its states into PettingZoo's
``agent_selection`` / ``observe`` / ``step`` contract:

* agents ``player_0 .. player_{n-1}`` by seat; the button moves one seat clockwise at
  each ``reset``, starting at seat 0 (option ``button``: ``"rotate"``, ``"random"`` or a
  fixed seat). A seed does not restart the rotation: it counts hands, so a loop that
  seeds every hand (``reset(seed=i)``) still gives every seat the button equally often,
  and the same seed after the same number of resets deals the same hand;
* observations ``{"observation": float32 vector, "action_mask": int8 vector}``; the mask
  is all zeros for an agent that is not to act;
* rewards arrive when the hand (or game) ends, in the variant's unit, and sum to zero;
* an action outside the mask raises :class:`IllegalActionError` (nothing changes), or,
  with ``illegal_action="lose"``, ends the episode with the offender at -1 and the
  others sharing +1 (PettingZoo's convention). Nothing is ever remapped;
* ``reset(seed=...)`` is deterministic and reuses the env; ``reset(options={"deck": [...]})``
  stacks the deck (top card first, card ints or strings such as ``"As Kd"``; floats and
  bools are refused, not truncated). A bad seed or option raises before anything
  changes: the env deals the same next hand as if the call had not been made;
* ``infos[agent]["legal_actions"]`` names the legal actions of the agent to act, in
  ``action_mask`` index order (readable names where a step gives them, such as Cowpie's
  ``split_Ah_9d`` for the stable index of ``split_0_3``); at the
  end every agent's info has ``"history"``: the hand as that seat saw it (a
  :class:`~envs.seat_history.SeatHistory`: ``str()`` it for the text). Infos and views hold
  only what the seat may see; the omniscient history and the exact replay record are
  the user's: ``hand_record()`` and ``full_history()``.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from envs.engine.cards import JOKER, format_cards, parse_deck
from envs.engine.errors import IllegalActionError
from envs.engine.history import HandRecord, hand_history
from envs.engine.observation import describe, docs_table
from envs.engine.options import check_choice, check_int, check_seat, check_seed, quoted
from envs.engine.state import State
from envs.engine.variant import Variant
from envs.engine.view import PublicView, SeatLogs, public_view
from envs.seat_history import seat_histories
from envs.variants import get_variant, replay

RENDER_FPS = 2  # one frame per decision; two a second is a pace a person can follow
RESET_OPTIONS = ("deck", "button", "hand")


def check_hand(value: Any) -> int:
    """A reset's ``hand`` option: an int >= 0 (numpy ints too, not bools)."""
    if isinstance(value, np.integer):
        value = int(value)
    check_int("hand", value, 0)
    return int(value)


class HandHistoryView:
    """A hand's omniscient history: text on ``str()`` (built lazily), replay record.

    It holds the whole state (the deck, every hidden card): ``full_history()`` gives it
    to the user; bots get :class:`~envs.seat_history.SeatHistory` instead."""

    def __init__(self, state: State, viewer: int | None = None) -> None:
        self.state = state
        self.viewer = viewer

    def __str__(self) -> str:
        return hand_history(self.state, self.viewer)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, HandHistoryView)
            and self.viewer == other.viewer
            and self.state.events == other.state.events
        )

    __hash__ = None  # type: ignore[assignment]

    @property
    def record(self) -> HandRecord:
        """Everything needed to replay the hand exactly."""
        return HandRecord.of(self.state)

    @property
    def events(self) -> list[Any]:
        """The raw event log."""
        return self.state.events

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its replay record (plain data), not as the live state with its game
        # program; replaying it rebuilds the identical state. Infos then cross process
        # boundaries (Gymnasium's AsyncVectorEnv, multiprocessing collectors) compactly.
        return (_replayed_history, (self.record, self.viewer))


def _replayed_history(record: HandRecord, viewer: int | None) -> HandHistoryView:
    """Unpickle a :class:`HandHistoryView` by replaying its record."""
    return HandHistoryView(replay(record), viewer)


class DealersChoiceEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment for one variant (see ``envs.make``)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (PettingZoo's class attribute)
        "render_modes": ["ansi", "human", "rgb_array"],
        "render_fps": RENDER_FPS,
        "name": "dealers_choice",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        variant: str | Variant,
        num_players: int = 2,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        omniscient_render: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        self.variant = get_variant(variant) if isinstance(variant, str) else variant
        if render_mode is not None:
            check_choice("render_mode", render_mode, self.metadata["render_modes"])
        check_choice("illegal_action", illegal_action, ("raise", "lose"))
        self.game = self.variant.game(num_players, **options)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.omniscient_render = omniscient_render
        self.metadata = {**self.metadata, "name": self.variant.env_id}
        n = num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self.pieces = self.variant.pieces(self.game)
        self.tracker = self.variant.tracker(self.game, self.pieces)
        self.action_names = self.game.action_names
        size, num_actions = self.tracker.size, self.game.num_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self._rng = np.random.default_rng()
        self._button: int | None = None
        self._hands = 0  # hands dealt: the next hand's number (Game.new_state's ``hand``)
        self._zero_mask = np.zeros(num_actions, np.int8)
        self.state: State | None = None
        self._seat_logs = SeatLogs(n)  # what each seat saw: views and histories copy from it

    # ----------------------------------------------------------------- spaces
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def public_view(self, agent: str) -> PublicView:
        """Structured view of what ``agent`` knows now (for bots that reason about cards)."""
        assert self.state is not None, "call reset() first"
        seat = self.agent_name_mapping[agent]
        self._seat_logs.sync(self.state.events)
        return public_view(self.state, seat, events=self._seat_logs.snapshot(seat))

    def hand_record(self) -> HandRecord:
        """The exact replay record of the current (or last) hand: the deck, the
        generator state and every decision. For the user, never for a bot: it holds
        every hidden card."""
        assert self.state is not None, "call reset() first"
        return HandRecord.of(self.state)

    def full_history(self) -> HandHistoryView:
        """The current (or last) hand with every card shown, and its replay record
        (``.record``). For the user, never for a bot (``infos`` hold each seat's own)."""
        assert self.state is not None, "call reset() first"
        return HandHistoryView(self.state)

    def observation_table(self) -> str:
        """Markdown table of this env's observation layout."""
        return docs_table(self.pieces)

    def describe_observation(self, vector: np.ndarray) -> str:
        """Text view of an observation vector, piece by piece."""
        return describe(self.pieces, vector)

    # ------------------------------------------------------------------ reset
    def _next_button(self, rng: np.random.Generator) -> int:
        """The seat the game's ``button`` option gives this hand.

        ``"rotate"`` counts hands, not seeds: one seat clockwise of the last hand's
        button (seat 0 first), whether or not ``reset`` was given a seed. Restarting
        at seat 0 on every seed would pin the button in the usual evaluation loop
        that seeds every hand; a seed-derived seat would only be balanced on average.
        """
        choice = self.game.options.button
        if isinstance(choice, int):
            return choice
        if choice == "random":
            return int(rng.integers(self.game.num_players))
        return 0 if self._button is None else (self._button + 1) % self.game.num_players

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new hand (the Cowboy games: a new game).

        ``seed`` (None or an int >= 0) restarts the deck generator; it does not move the
        button, which rotates by hands dealt (see ``_next_button``), so the same seed
        after the same number of resets deals the same hand. ``options``: ``deck`` (a
        stacked deck, top card first: a string such as ``"As Kd"`` or a sequence of card
        ints and strings), ``button`` (a seat, for this hand; the rotation continues
        from it) and ``hand`` (the hand's number at the table, an int >= 0; by default
        the hands dealt so far: dealer's choice with ``choice="rotate"`` deals by it, and
        later hands count on from it).

        Everything is checked before anything changes: a bad seed or option raises
        (``TypeError`` for a wrong type, ``ValueError`` for a bad value) and leaves the
        env exactly as it was, generator and button included.
        """
        seed = check_seed(seed)
        button, deck, hand = self._reset_options(options)
        hand = self._hands if hand is None else hand
        rng = self._rng if seed is None else np.random.default_rng(seed)
        # A failed deal must not advance the env's own generator (a new seeded one is
        # simply dropped): a failed reset changes nothing.
        saved = rng.bit_generator.state if rng is self._rng else None
        try:
            if button is None:
                button = self._next_button(rng)
            state = self.game.new_state(rng, button=button, deck=deck, hand=hand)
        except BaseException:
            if saved is not None:
                rng.bit_generator.state = saved
            raise
        self._rng, self._button, self.state, self._hands = rng, button, state, hand + 1
        self.tracker.reset(state)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._after_transition()

    def _reset_options(self, options: Any) -> tuple[int | None, list[int] | None, int | None]:
        """The checked ``button``, ``deck`` and ``hand`` of reset's ``options`` (None:
        not given)."""
        if options is None:
            return None, None, None
        if not isinstance(options, Mapping):
            raise TypeError(
                f"reset options={quoted(options)} is not allowed: expected None or a dict "
                "with keys 'deck', 'button' and/or 'hand'"
            )
        unknown = sorted(set(options) - set(RESET_OPTIONS), key=repr)
        if unknown:  # PettingZoo's api_test passes arbitrary options; say so, don't crash
            shown = ", ".join(map(quoted, unknown[:5])) + (f" and {len(unknown) - 5} more" if len(unknown) > 5 else "")
            warnings.warn(f"ignoring unknown reset options {shown}; known: 'deck', 'button', 'hand'", stacklevel=3)
        button = options.get("button")
        if button is not None:
            button = check_seat("button", button, self.game.num_players)
        hand = options.get("hand")
        if hand is not None:
            hand = check_hand(hand)
        deck = options.get("deck")
        return button, None if deck is None else parse_deck(deck, joker=JOKER in self.game.deck), hand

    # ------------------------------------------------------------------- step
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        assert self.state is not None
        seat = self.agent_name_mapping[agent]
        mask = self._zero_mask.copy()
        if self.state.current_seat == seat:
            mask[self.state.legal_actions()] = 1
        return {"observation": self.tracker.observe(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self.state is not None
        try:
            self.state.apply(action)  # type: ignore[arg-type]
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._lose_for_illegal(agent)
            return
        self._cumulative_rewards[agent] = 0.0
        self.tracker.sync()
        self._after_transition()

    def _after_transition(self) -> None:
        state = self.state
        assert state is not None
        if state.is_over:
            self._end_episode(dict(zip(self.possible_agents, state.rewards(), strict=True)))
            return
        acting = self.possible_agents[state.current_seat]  # type: ignore[index]
        self.agent_selection = acting
        self.infos[acting] = {"legal_actions": state.legal_labels()}
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _end_episode(self, rewards: dict[str, float]) -> None:
        assert self.state is not None
        self.rewards = rewards
        truncated = self.state.truncated
        histories = seat_histories(self.state)  # each seat's own: no hidden card, no deck
        for seat, agent in enumerate(self.possible_agents):
            if agent in self.terminations:
                self.terminations[agent] = not truncated
                self.truncations[agent] = truncated
                self.infos[agent] = {"legal_actions": [], "history": histories[seat]}
        self._accumulate_rewards()
        self.agent_selection = self.agents[0]
        if self.render_mode == "human":
            self.render()

    def _lose_for_illegal(self, agent: str) -> None:
        others = [a for a in self.possible_agents if a != agent]
        rewards = {a: 1.0 / len(others) for a in others}
        rewards[agent] = -1.0
        self._cumulative_rewards[agent] = 0.0
        self._end_episode(rewards)
        for info in self.infos.values():
            info["illegal_action"] = agent

    # ----------------------------------------------------------------- render
    def render(self) -> str | np.ndarray | None:
        """``"ansi"``: the table as text; ``"rgb_array"``: a picture of it (an ``(H, W, 3)``
        uint8 array, :mod:`envs.render`); ``"human"``: the text, printed. Seen by the
        seat to act (face-down cards of the others hidden), or every card with
        ``omniscient_render``."""
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            return self.render_rgb()
        text = self.render_text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def render_rgb(self, viewer: int | None = None) -> np.ndarray:
        """The table as a picture, seen as :meth:`render_text` sees it."""
        from envs.render import felt, table_image, to_array  # Pillow only when pictures are asked for

        st = self.state
        if st is None:
            return to_array(felt())
        if viewer is None and not self.omniscient_render:
            viewer = -1 if st.current_seat is None else st.current_seat  # -1: public view
        return table_image(st, viewer)

    def render_text(self, viewer: int | None = None) -> str:
        """The table as a player sees it (``viewer``; default the seat to act, or all
        cards with ``omniscient_render``)."""
        st = self.state
        if st is None:
            return "(no hand yet: call reset())"
        if viewer is None and not self.omniscient_render:
            viewer = -1 if st.current_seat is None else st.current_seat  # -1: public view
        return render_table(st, viewer, self.action_names)

    def close(self) -> None:
        pass


def render_table(st: State, viewer: int | None, names: Sequence[str]) -> str:
    """Text drawing of the table: cards (hidden ones as ??), chips and the action.

    ``viewer``: a seat (its own cards visible), -1 (public view) or None (every card)."""
    unit = st.game.unit
    head = f"{st.title}: pot {st.pot()} ({st.pot() / unit:g} units)"
    if st.community:
        head += f" | community: {format_cards(st.community, symbols=True)}"
    lines = [head]
    for seat in range(st.n):
        shown = st.is_over and any(e.kind == "show" and e.seat == seat for e in st.events)
        cards = []
        for card, up in zip(st.cards[seat], st.up[seat], strict=True):
            visible = up or viewer is None or viewer == seat or shown
            cards.append(format_cards([card], symbols=True) if visible else "??")
            if not up and visible:
                cards[-1] = f"[{cards[-1]}]"
        marks = [m for m, on in (("button", seat == st.button), ("folded", st.folded[seat])) if on]
        pointer = ">" if seat == st.current_seat else " "
        note = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"{pointer} player_{seat}{note}: {' '.join(cards) or '-'}  in pot {st.committed[seat]}")
    if st.is_over:
        lines.append("hand over: " + ", ".join(f"player_{s} {p:+d}" for s, p in enumerate(st.payoffs())))
    else:
        lines.append(f"to act: player_{st.current_seat}; legal: {', '.join(st.legal_labels())}")
    return "\n".join(lines)
