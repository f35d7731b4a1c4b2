"""Tables the server runs: a match between bots to watch, and a seat for a person.

Built like ``play.py``'s table (``envs.make_raw``, ``agents.load``, one
:class:`~envs.policy.Seating` that checks every bot answer), but driven step by step
by requests. A person's action is applied only if it is one of the legal actions at
that moment; anything else is refused with the legal list and changes nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from agents.human import Cards, options_for
from envs.aec import DealersChoiceEnv
from envs.engine.history import HandRecord, hand_history
from envs.policy import BotActionError, BotError, Seating, blame
from envs.registry import get_spec, make_raw
from envs.variants import get_variant
from evaluation.arena import mean_ci, unit_name
from evaluation.seating import trained_table
from evaluation.stats import unique_names
from evaluation.web.frames import frame
from evaluation.web.hands import Hand, RequestError

MAX_HANDS_PER_TABLE = 1000  # a table keeps every hand for the history download
KEEP_STEPS = 50  # hands whose steps stay in memory; older ones replay from their records when opened
PLAIN = Cards(color=False)


@dataclass(frozen=True)
class TableConfig:
    """What a watch or play request asks for (already checked as data by the server)."""

    variant: str
    bots: tuple[str, ...]
    """Bot specs: every seat (watch), or the other seats in order after yours (play)."""
    num_players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    seat: int | None = None
    """The person's seat (play); None: bots in every seat (watch)."""


class Table:
    """One table and its hands; every public method holds the table's lock, so two
    requests for the same table never interleave their steps."""

    def __init__(self, config: TableConfig, load_bot: Callable[[str, int | None], Any]) -> None:
        variant = get_variant(get_spec(config.variant).variant)
        bots = list(config.bots)
        if not bots:
            raise RequestError("name at least one bot")
        people = 0 if config.seat is None else 1
        n = config.num_players or max(len(bots) + people, variant.seats[0])
        self.seated = _trained_table(variant.name, n, bots, config.options)
        options = config.options if self.seated is None else self.seated[0]
        self.env: DealersChoiceEnv = make_raw(config.variant, n, **options)
        if config.seat is not None and not 0 <= config.seat < n:
            raise RequestError(f"seat {config.seat} is not allowed: expected 0..{n - 1}")
        others = [bots[i % len(bots)] for i in range(n - people)]
        specs = others if config.seat is None else [*others[: config.seat], "you", *others[config.seat :]]
        self.names = unique_names(specs)
        self.specs = specs
        self.me = config.seat
        self.config = config
        seed = config.seed
        self.bots = {
            s: load_bot(spec, None if seed is None else seed + 7919 * (s + 1))
            for s, spec in enumerate(specs)
            if s != config.seat
        }
        self.seating = Seating([self.bots.get(s) for s in range(n)], self.names)
        self.hands: list[Hand] = []
        self.results: list[list[float]] = []  # per finished hand, every seat's reward
        self.lock = threading.Lock()
        self._states: list[Any] = []
        self._insight: list[dict[str, Any] | None] = []
        self.in_hand = False  # a hand is dealt and not finished (a bot's failure ends it: see _bot_step)

    # ---------------------------------------------------------------- hands
    def _deal(self) -> None:
        if len(self.hands) >= MAX_HANDS_PER_TABLE:
            raise RequestError(f"this table has played {MAX_HANDS_PER_TABLE} hands; open a new one", status=409)
        number = len(self.hands)
        env, seed = self.env, self.config.seed
        hand_seed = None if seed is None else seed * 1_000_003 + number
        n = env.game.num_players
        self.seating.seed([None if hand_seed is None else hand_seed + 7919 * (s + 1) for s in range(n)])
        self.seating.reset()
        env.reset(seed=hand_seed, options={"button": number % n, "hand": number})
        self._states, self._insight = [], []
        self.in_hand = True

    def _bot_step(self) -> None:
        env = self.env
        state = env.state
        seat = state.current_seat
        agent = env.possible_agents[seat]
        observation, view = env.observe(agent), env.public_view(agent)
        try:
            with blame(self.names[seat], seat):
                thought = insight(self.bots[seat], seat, self.names[seat], observation, view, state)
            action = self.seating.act(seat, observation, view)
        except (BotError, BotActionError) as err:
            self.in_hand = False  # the hand is void: it is not counted, and a new one may be dealt
            raise RequestError(f"the bot stopped the hand (it is not counted): {err}", status=409) from None
        self._states.append(state.clone())
        self._insight.append(thought)
        env.step(action)

    def _finish(self) -> Hand:
        state = self.env.state
        hand = Hand(HandRecord.of(state), list(self.names), {"hand": len(self.hands)})
        hand.states = [*self._states, state.clone()]
        hand.insight = [*self._insight, None]
        self.hands.append(hand)
        if len(self.hands) > KEEP_STEPS:  # a long Cowboy session: drop old copies, the record replays them
            old = self.hands[-KEEP_STEPS - 1]
            old.final, old.states = old.last(), None
        self.results.append([float(r) for r in state.rewards()])
        self.in_hand = False
        return hand

    def watch_hand(self) -> Hand:
        """Deal and play one hand (a whole game in the Cowboy family) between the bots."""
        with self.lock:
            if self.me is not None:
                raise RequestError("this is a table for a person; watch tables have bots in every seat")
            self._deal()
            while not self.env.state.is_over:
                self._bot_step()
            return self._finish()

    # ---------------------------------------------------------------- play
    def start(self) -> dict[str, Any]:
        """A new hand for the person: bots act until it is the person's turn or the end."""
        with self.lock:
            if self.in_hand:
                raise RequestError("the hand in play is not over yet", status=409)
            self._deal()
            return self._run_bots()

    def act(self, action: Any) -> dict[str, Any]:
        """The person's action: applied only when it is legal now, else refused."""
        with self.lock:
            state = self.env.state
            if not self.in_hand or state is None or state.is_over:
                raise RequestError("no hand in play: deal a new one", status=409)
            if state.current_seat != self.me:
                raise RequestError(f"it is player_{state.current_seat}'s turn, not yours", status=409)
            legal = state.legal_actions()
            if type(action) is not int or action not in legal:
                labels = ", ".join(f"{a} ({label})" for a, label in zip(legal, state.legal_labels(), strict=True))
                shown = str(action)[:40]
                raise RequestError(f"action {shown!r} is not legal here; legal actions: {labels}", status=409)
            self._states.append(state.clone())
            self._insight.append(None)
            self.env.step(action)
            return self._run_bots()

    def _run_bots(self) -> dict[str, Any]:
        state = self.env.state
        while not state.is_over and state.current_seat != self.me:
            self._bot_step()
        if state.is_over:
            self._finish()
        return self._status()

    def status(self) -> dict[str, Any]:
        """What the person sees now, the legal actions and the session's result."""
        with self.lock:
            return self._status()

    def _status(self) -> dict[str, Any]:
        env, me = self.env, self.me
        state = env.state
        out: dict[str, Any] = {"names": self.names, "seat": me, "session": self.session()}
        if state is None:
            return {**out, "frame": None, "legal": []}
        out["frame"] = frame(state, me, self.names)
        legal: list[dict[str, Any]] = []
        if not state.is_over and state.current_seat == me:
            view = env.public_view(env.possible_agents[me])
            legal = [
                {"action": o.action, "name": o.name, "label": o.label, "words": o.words}
                for o in options_for(view, state.legal_labels(), PLAIN)
            ]
        out["legal"] = legal
        if state.is_over:
            out["result"] = state.rewards()[me]
        return out

    def session(self) -> dict[str, Any]:
        """Each seat's total, and (a person's table) the person's mean per hand with its
        95% interval (Student's t over the finished hands, as ``evaluation`` quotes)."""
        unit = unit_name(self.env)
        totals = [sum(r[s] for r in self.results) for s in range(len(self.names))]
        out: dict[str, Any] = {"hands": len(self.results), "unit": unit, "totals": totals}
        if self.seated is not None:
            out["note"] = self.seated[1]  # the options a shipped agent was seated at
        seats = [self.me] if self.me is not None else range(len(self.names))
        stats = []
        for s in seats:
            stat = mean_ci([r[s] for r in self.results])
            finite = bool(np.isfinite(stat.half_width))
            stats.append(
                {
                    "seat": s,
                    "name": self.names[s],
                    "total": totals[s],
                    "mean": stat.mean if stat.n else None,
                    "half_width": stat.half_width if finite else None,
                }
            )
        out["seats"] = stats
        return out

    def history(self, fmt: str) -> str:
        """The finished hands: ``text`` as the person's seat saw them (every card for a
        watch table), or ``jsonl`` records (every card: they replay the hands exactly)."""
        with self.lock:
            if fmt == "text":
                return "\n\n".join(hand_history(h.last(), self.me) for h in self.hands) + "\n"
            if fmt == "jsonl":
                return "".join(h.record.to_json().replace("\n", " ") + "\n" for h in self.hands)
        raise RequestError(f"format {fmt[:20]!r} is not allowed: expected text or jsonl")


def insight(
    bot: Any, seat: int, name: str, observation: dict[str, np.ndarray], view: Any, state: Any
) -> dict[str, Any]:
    """What a bot thought at a decision: the probability of each legal action (bots
    with ``action_probabilities``: network bots, random), and a network's value
    estimate where it has a value head that needs no privileged input."""
    out: dict[str, Any] = {"seat": seat, "bot": name}
    if hasattr(bot, "action_probabilities"):
        probs = np.asarray(bot.action_probabilities([observation], [view]))[0]
        out["probabilities"] = [
            {"action": a, "label": label, "p": float(probs[a])}
            for a, label in zip(state.legal_actions(), state.legal_labels(), strict=True)
        ]
    net = getattr(bot, "net", None)
    if net is not None:
        if getattr(net, "value", None) is not None and not getattr(net, "privileged", 0):
            with torch.inference_mode():
                obs = torch.from_numpy(np.asarray(observation["observation"], np.float32)[None])
                out["value"] = float(net.values(obs)[0])
        else:
            out["value_note"] = "no value head (an acting-only network)"
    return out


def _trained_table(
    variant: str, num_players: int, bots: list[str], options: dict[str, Any]
) -> tuple[dict[str, Any], str] | None:
    """The table a shipped agent (``pretrained:``) was trained for, and a line saying
    so, when the request names no options (``evaluation.seating.trained_table``);
    None: the table as asked. A request's checkpoint paths are resolved later, inside the
    server's folders, so only shipped agents are looked at here."""
    try:
        options, note = trained_table(variant, num_players, [b for b in bots if b.startswith("pretrained:")], options)
    except ValueError as err:
        raise RequestError(str(err)) from None
    return None if note is None else (options, note)
