"""Hand histories of an evaluation, written as the chunks of deals come back.

``hands.txt`` holds every hand as text (all cards shown), each under a line naming
the match, the deal, the seating and which bot sat in which seat. ``hands.jsonl`` holds
one JSON object per hand with the same facts and ``record``, the fields of
:class:`envs.engine.history.HandRecord`, which replays the hand exactly::

    import json
    from envs.engine.history import HandRecord
    from envs.variants import replay

    for line in open("hands.jsonl"):
        row = json.loads(line)
        state = replay(HandRecord.from_json(json.dumps(row["record"])))  # same payoffs as row["rewards"]
"""

from __future__ import annotations

import json
from pathlib import Path
from types import TracebackType
from typing import IO

from evaluation.arena import HandRecordLite
from evaluation.runner import HistorySink, MatchSpec


class HistoryWriter:
    """Appends hands to ``hands.txt`` and/or ``hands.jsonl`` in ``directory``."""

    def __init__(self, directory: Path, fmt: str, names: list[str]) -> None:
        self.names = names  # display names of all bots (tournament: the whole field)
        self.paths: list[Path] = []
        self.text: IO[str] | None = None
        self.json: IO[str] | None = None
        if fmt in ("text", "both"):
            self.paths.append(directory / "hands.txt")
            self.text = self.paths[-1].open("w")
        if fmt in ("json", "both"):
            self.paths.append(directory / "hands.jsonl")
            self.json = self.paths[-1].open("w")

    def __call__(self, index: int, spec: MatchSpec, hands: list[HandRecordLite], bots: list[int]) -> None:
        """Write one chunk of match ``index``; ``bots`` maps the match's bot indices to
        the field's (a tournament pair plays two of them)."""
        for hand in hands:
            seats = [self.names[bots[b]] for b in hand.lineup]
            if self.text is not None and hand.history.text is not None:
                who = ", ".join(f"player_{s} = {name}" for s, name in enumerate(seats))
                self.text.write(f"=== match {index}, deal {hand.deal}, seating {hand.rotation}: {who} ===\n")
                self.text.write(hand.history.text + "\n\n")
            if self.json is not None and hand.history.record is not None:
                row = {
                    "match": index,
                    "deal": hand.deal,
                    "seating": hand.rotation,
                    "seats": seats,
                    "rewards": hand.rewards,
                    "record": hand.history.record,
                }
                self.json.write(json.dumps(row) + "\n")

    def sink(self, groups: list[list[int]]) -> HistorySink:
        """The callback for ``play_matches``: match ``i`` plays the field's bots ``groups[i]``."""
        return lambda index, spec, hands: self(index, spec, hands, groups[index])

    def close(self) -> None:
        """Flush and close the files."""
        for f in (self.text, self.json):
            if f is not None:
                f.close()

    def __enter__(self) -> HistoryWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
