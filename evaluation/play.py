"""Play a variant in the terminal against bots.

You take one seat; bots (any ``agents.load`` spec) take the others. Before each of
your decisions you see what happened since your last one, the table as your seat
sees it (your face-down cards in brackets, others' hidden cards as ``??``) and your
legal actions by number and name. Answer with the number, the name or the word
shown (``call``, ``fold``, ``stay``, ``low``...); a bad answer is explained and asked
again. At the end of each hand (a whole game in the Cowboy family) the hand history
is printed as your seat saw it, with everyone's result. The session ends after
``--hands`` hands, a "no" to "another hand? [Y/n]", ``q`` or the end of input (exit
status 0), or Ctrl-C (exit status 130); each prints your total over the finished hands.

Examples::

    dealers-choice play stud                       # you against a calling station, heads-up
    dealers-choice play razz --bots random call    # three players
    dealers-choice play cowboy --bots heuristic heuristic --option match_cap=8
    dealers-choice play chowaha --bots call --option betting=no_limit --seat 1 --hands 5

A network bot named with no ``--option`` is seated at the table it was trained for
(the first line says which options); conflicting options are refused with the flags
that fix them.

``main(argv, stdin=..., stdout=...)`` takes any text streams (tests script a hand).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field, replace
from typing import Any, TextIO

from agents.human import Cards, Prompt, Quit, options_for, table_text
from agents.loading import load
from envs.aec import DealersChoiceEnv
from envs.engine.history import hand_history
from envs.policy import Seating
from envs.registry import ENV_SPECS, get_spec, make_raw
from envs.variants import get_variant
from evaluation.arena import unit_name
from evaluation.cli import parse_options, prog_name, script_parser
from evaluation.seating import trained_table
from evaluation.stats import unique_names


@dataclass
class PlayConfig:
    """A session at the table."""

    variant: str
    """Variant name or env id."""
    bots: tuple[str, ...] = ("call",)
    """Bots in the other seats, in seat order after yours (cycled if --players is larger)."""
    num_players: int | None = None
    """Seats; default: you plus one per bot (at least the variant's minimum, bots cycled)."""
    seat: int = 0
    """Your seat (``player_<seat>``)."""
    hands: int | None = None
    """Hands (Cowboy: games) to play; None: ask after each one."""
    options: dict[str, Any] = field(default_factory=dict)
    """Variant options."""
    seed: int | None = None
    """Seed of the deals and the bots; None: different cards every session."""
    color: bool = False
    """Red hearts and diamonds (ANSI colours)."""


class Table:
    """One session: the env, the bots, the person's prompt and the running score."""

    def __init__(self, config: PlayConfig, prompt: Prompt) -> None:
        n = seats(config)
        self.config = config
        self.env: DealersChoiceEnv = make_raw(config.variant, n, **config.options)
        if not 0 <= config.seat < n:
            raise ValueError(f"seat={config.seat} is not allowed: expected 0..{n - 1}")
        if config.hands is not None and config.hands < 1:
            raise ValueError(f"hands={config.hands} is not allowed: expected at least 1 (or none: ask after each)")
        if not config.bots:
            raise ValueError("give at least one bot spec (--bots)")
        others = [config.bots[i % len(config.bots)] for i in range(n - 1)]
        specs = [*others[: config.seat], "you", *others[config.seat :]]
        self.names = unique_names(specs)
        self.bots = {s: load(spec) for s, spec in enumerate(specs) if s != config.seat}
        self.seating = Seating([self.bots.get(s) for s in range(n)], self.names)
        self.prompt = prompt
        self.draw = Cards(color=config.color)
        self.results: list[float] = []

    def play_hand(self, number: int) -> None:
        """Deal and play one hand (or Cowboy game) to its end; raises Quit."""
        env, me = self.env, self.config.seat
        seed = None if self.config.seed is None else self.config.seed * 1_000_003 + number
        n = env.game.num_players
        self.seating.seed([None if seed is None else seed + 7919 * (s + 1) for s in range(n)])
        self.seating.reset()
        env.reset(seed=seed, options={"button": number % env.game.num_players, "hand": number})
        state = env.state
        assert state is not None
        shown = 0
        while not state.is_over:
            seat = state.current_seat
            assert seat is not None
            agent = env.possible_agents[seat]
            if seat == me:
                shown = self._narrate(shown)
                env.step(self._ask(agent))
            else:
                env.step(self.seating.act(seat, env.observe(agent), env.public_view(agent)))
        self._finish(state)

    def _narrate(self, shown: int) -> int:
        """Print the history lines (as this seat saw them) not printed yet."""
        assert self.env.state is not None
        lines = hand_history(self.env.state, self.config.seat).splitlines()
        for line in lines[shown:]:
            self.prompt.say(self.draw.text(line))
        return len(lines)

    def _ask(self, agent: str) -> int:
        env = self.env
        state = env.state
        assert state is not None
        view = env.public_view(agent)
        title = f"{state.title}, {state.n} players"
        self.prompt.say()
        self.prompt.say(table_text(view, self.names, title, self.draw, unit_name(env)))
        options = options_for(view, state.legal_labels(), self.draw)
        history = self.draw.text(hand_history(state, self.config.seat))
        return self.prompt.choose(options, history)

    def _finish(self, state: Any) -> None:
        me = self.config.seat
        result = state.rewards()[me]
        self.results.append(result)
        self.prompt.say()
        self.prompt.say("*** HAND HISTORY (as you saw it) ***")
        self.prompt.say(self.draw.text(hand_history(state, me)))
        unit = unit_name(self.env)
        self.prompt.say(
            f"You {'won' if result > 0 else 'lost' if result < 0 else 'broke even'}: {result:+g} {unit}; "
            f"session: {sum(self.results):+g} {unit} over {len(self.results)} hand(s)"
        )


def seats(config: PlayConfig) -> int:
    """Seats at the table: ``num_players``, or you plus one per bot (at least the variant's minimum)."""
    return config.num_players or max(1 + len(config.bots), get_variant(get_spec(config.variant).variant).seats[0])


def play(config: PlayConfig, stdin: TextIO, stdout: TextIO) -> list[float]:
    """Play a session; returns your result per finished hand, in reward units."""
    return session(Table(config, Prompt(stdin, stdout)))


def session(table: Table) -> list[float]:
    """Hands until the configured count, a "no", a quit or the end of input; your
    results. Every ending prints the session's summary; Ctrl-C prints it and raises
    ``KeyboardInterrupt`` again (``play.py`` then exits with status 130)."""
    config, prompt = table.config, table.prompt
    names = ", ".join(f"player_{s} {n}" for s, n in enumerate(table.names))
    prompt.say(f"{table.env.variant.title}: {names}. Type ? for help, q to quit.")
    number = 0
    try:
        while config.hands is None or number < config.hands:
            table.play_hand(number)
            number += 1
            if config.hands is None and not prompt.confirm("another hand? [Y/n] "):
                break
    except Quit:
        pass
    except KeyboardInterrupt:
        prompt.say()  # the cursor may sit after a question
        prompt.say(f"interrupted: {summary(table)}")
        raise
    prompt.say(f"bye: {summary(table)}")
    return table.results


def summary(table: Table) -> str:
    """The finished hands' total (a hand cut short by a quit does not count)."""
    if not table.results:
        return "no hand finished"
    return f"{sum(table.results):+g} {unit_name(table.env)} over {len(table.results)} hand(s)"


def build_parser() -> argparse.ArgumentParser:
    """The command line (``dealers-choice play --help``)."""
    p = script_parser("play.py", __doc__ or "")
    p.add_argument("variant", help="variant or env id: " + ", ".join(ENV_SPECS))
    p.add_argument("--bots", nargs="+", default=["call"], help="bots in the other seats (default: call)")
    p.add_argument(
        "-p",
        "--players",
        dest="num_players",
        type=int,
        default=None,
        help="seats (default: you + one per bot, at least the variant's minimum)",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("-n", "--hands", type=int, default=None, help="hands to play (default: ask after each)")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE", help="variant option")
    p.add_argument("--seed", type=int, default=None, help="seed for repeatable deals")
    p.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="red suits (default auto)")
    return p


def main(argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> list[float]:
    """Run from a command line; returns your results. Exits with status 2 on a bad
    command line and 130 on Ctrl-C (after printing the summary)."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    args = build_parser().parse_args(argv)
    try:
        table = _table(args, stdin, stdout)
    except KeyboardInterrupt:  # e.g. while a checkpoint loads
        print("play.py: interrupted before the first hand", file=sys.stderr)
        raise SystemExit(130) from None
    try:
        return session(table)
    except KeyboardInterrupt:  # session() printed the summary
        raise SystemExit(130) from None


def _table(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> Table:
    """The table the command line describes; exits with status 2 on bad input."""
    try:
        color = args.color == "always" or (args.color == "auto" and stdout.isatty())
        config = PlayConfig(
            variant=args.variant,
            bots=tuple(args.bots),
            num_players=args.num_players,
            seat=args.seat,
            hands=args.hands,
            options=parse_options(args.option),
            seed=args.seed,
            color=color,
        )
        variant = get_variant(get_spec(config.variant).variant).name
        options, note = trained_table(variant, seats(config), config.bots, config.options)
        prompt = Prompt(stdin, stdout)
        if note is not None:  # a network seated at the table it was trained for
            prompt.say(note)
            config = replace(config, options=options)
        return Table(config, prompt)  # bad variant, options, seat or bots fail here
    except (ValueError, OSError) as err:  # bad input, or a checkpoint file that cannot be read
        print(f"{prog_name('play.py')}: error: {err}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
