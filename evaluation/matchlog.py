"""A run's log of played hands, so that an interrupted run resumes where it stopped.

The log is JSON lines: a header with the run's settings, then one line per chunk of
consecutive deals of one match as it comes back (its hands, payoffs, decision counts and
a forfeit if there was one). Every line is flushed when written, so a run stopped by
Ctrl-C, SIGTERM or a crash loses at most the chunk being played. Resuming reads the
log (a last line cut short by the interruption is dropped), plays only the deals not in
it, and merges: deals are seeded one by one and bots reseeded every hand
(:mod:`evaluation.arena`), so the final result equals that of an uninterrupted run, for
bots that act only on what they are shown and on the seed of each hand.

The log is read as data (:func:`json.loads`); a log whose settings differ from the run
being resumed is refused with the settings that differ.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import IO, Any

from evaluation.arena import Forfeit, HandRecordLite, MatchResult

LOG_VERSION = 1
LOG_CHUNK = 10  # deals per logged chunk: what an interruption may cost to replay


class MatchLog:
    """Appends chunks of hands to ``path``; with ``resume``, first reads what it holds.

    Args:
        path: the log file.
        settings: the run's settings as JSON data; a resumed log must hold the same.
        resume: continue the log at ``path`` (it must exist); otherwise start a new one
            (an existing file is refused, so that no log is overwritten by mistake).
    """

    def __init__(self, path: str | Path, settings: dict[str, Any], *, resume: bool = False) -> None:
        self.path = Path(path)
        self.settings = json.loads(json.dumps(settings))  # tuples as lists, as they are read back
        self._parts: dict[int, list[MatchResult]] = {}
        if resume:
            if not self.path.is_file():
                raise ValueError(f"cannot resume: there is no match log {str(self.path)!r}")
            self._read()
            self._file: IO[str] = self.path.open("a", encoding="utf-8")
        else:
            if self.path.exists():
                what = "resume it (--resume) or choose another file"
                raise ValueError(f"the match log {str(self.path)!r} exists: {what}")
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._file = self.path.open("w", encoding="utf-8")
            self._line({"type": "header", "log": LOG_VERSION, "settings": self.settings})

    # ----------------------------------------------------------------- reading
    def parts(self, index: int) -> list[MatchResult]:
        """The chunks of match ``index`` already played (empty for a new log)."""
        return list(self._parts.get(index, []))

    def done(self, index: int) -> set[int]:
        """Deals of match ``index`` already played."""
        return {h.deal for p in self._parts.get(index, []) for h in p.hands}

    def forfeited(self, index: int) -> bool:
        """Whether match ``index`` was already lost by a bot (nothing more to play)."""
        return any(p.forfeit is not None for p in self._parts.get(index, []))

    def _read(self) -> None:
        raw = self.path.read_bytes()
        end = raw.rfind(b"\n") + 1  # a line cut short by the interruption is not kept
        lines = raw[:end].decode("utf-8").splitlines()
        if not lines:
            raise ValueError(f"the match log {str(self.path)!r} is empty: start a new run instead of resuming")
        try:
            rows = [json.loads(line) for line in lines]
        except ValueError as err:
            raise ValueError(f"the match log {str(self.path)!r} is damaged ({err})") from None
        header = rows[0]
        if not isinstance(header, dict) or header.get("type") != "header" or header.get("log") != LOG_VERSION:
            raise ValueError(f"{str(self.path)!r} is not a match log of version {LOG_VERSION}")
        logged = header["settings"]
        different = sorted(key for key in {*logged, *self.settings} if logged.get(key) != self.settings.get(key))
        if different:
            shown = ", ".join(f"{k}: log {logged.get(k)!r}, now {self.settings.get(k)!r}" for k in different)
            raise ValueError(f"the match log {str(self.path)!r} is of another run ({shown})")
        for row in rows[1:]:
            self._parts.setdefault(row["match"], []).append(_part(row))
        if end < len(raw):
            with self.path.open("r+b") as f:
                f.truncate(end)

    # ----------------------------------------------------------------- writing
    def write(self, index: int, part: MatchResult) -> None:
        """Log one chunk of match ``index`` (its hands' histories are not kept)."""
        forfeit = part.forfeit
        self._line(
            {
                "type": "chunk",
                "match": index,
                "names": part.names,
                "unit_name": part.unit_name,
                "per": part.per,
                "hands": [
                    {
                        "deal": h.deal,
                        "rotation": h.rotation,
                        "lineup": h.lineup,
                        "rewards": h.rewards,
                        "decisions": [list(d) for d in h.decisions],
                    }
                    for h in part.hands
                ],
                "mix_totals": [dict(c) for c in part.mix_totals],
                "forfeit": None if forfeit is None else forfeit.__dict__,
            }
        )

    def _line(self, row: dict[str, Any]) -> None:
        self._file.write(json.dumps(row, allow_nan=False) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())  # the point of the log is to survive what stops the run

    def close(self) -> None:
        """Close the file (the log stays for a later resume)."""
        self._file.close()

    def __enter__(self) -> MatchLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _part(row: dict[str, Any]) -> MatchResult:
    """A logged chunk back as the runner's chunk result."""
    hands = [
        HandRecordLite(h["deal"], h["rotation"], h["lineup"], h["rewards"], [tuple(d) for d in h["decisions"]])
        for h in row["hands"]
    ]
    part = MatchResult(
        names=row["names"], hands=hands, sets=len({h.deal for h in hands}), unit_name=row["unit_name"], per=row["per"]
    )
    part.mix_totals = [Counter(c) for c in row["mix_totals"]]
    part.forfeit = None if row["forfeit"] is None else Forfeit(**row["forfeit"])
    return part


def deal_chunks(deals: int, done: set[int], size: int) -> list[range]:
    """The deals of ``range(deals)`` not in ``done``, as ranges of at most ``size``
    consecutive deals.

    >>> deal_chunks(7, {2, 3}, 2)
    [range(0, 2), range(4, 6), range(6, 7)]
    """
    out: list[range] = []
    run: list[int] = []
    for d in range(deals):
        if d not in done:
            run.append(d)
        if run and (d in done or len(run) == size or d == deals - 1):
            out.append(range(run[0], run[-1] + 1))
            run = []
    return out
