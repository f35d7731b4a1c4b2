"""The Python skeleton, answering badly on purpose: ``bad_bot.py MODE [AFTER]`` plays
AFTER decisions well (default 0), then misbehaves as MODE says (the forfeit tests).
``observe`` asks for the observation vector and plays well if it comes as promised;
``record PATH`` plays well and writes every line it is sent to PATH."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "examples" / "bots"))
from skeleton import choose

BAD = {
    "crash": lambda m: sys.exit(3),
    "hang": lambda m: time.sleep(60),
    "malformed": lambda m: '{"action": 1',
    "not_object": lambda m: "[1]",
    "unknown": lambda m: '{"action": "shove"}',
    "illegal": lambda m: json.dumps({"action": 99}),
    "illegal_name": lambda m: '{"action": "bring_in"}' if "bring_in" not in m["view"]["legal_names"] else "{}",
    "float": lambda m: '{"action": 1.0}',
    "long": lambda m: '{"action": "' + "x" * 100_000 + '"}',
    "chatty": lambda m: "thinking about it...",
    "disconnect": lambda m: os.close(1) or time.sleep(60),
}


def main() -> None:
    mode = sys.argv[1]
    after = int(sys.argv[2]) if len(sys.argv) > 2 and mode != "record" else 0
    record = open(sys.argv[2], "w") if mode == "record" else None  # noqa: SIM115 (open for the whole session)
    if mode == "no_ready":
        print('{"type": "hi"}', flush=True)
    decisions, size = 0, None
    for line in sys.stdin:
        message = json.loads(line)
        if record is not None:
            record.write(line)
            record.flush()
        if message["type"] == "hello":
            size = message["observation_size"]
            print(json.dumps({"type": "ready", "name": mode, "observation": mode == "observe"}), flush=True)
        elif message["type"] == "act" and mode in ("observe", "record"):  # good bots
            vector = message.get("observation")
            floats = isinstance(vector, list) and len(vector) == size and all(isinstance(x, float) for x in vector)
            if mode == "observe" and not floats:
                sys.exit(f"observe: no observation vector of {size} floats")
            print(json.dumps({"action": choose(message["view"])}), flush=True)
        elif message["type"] == "act":
            if decisions >= after:
                answer = BAD[mode](message)
                if answer is not None:
                    print(answer, flush=True)
                continue
            decisions += 1
            print(json.dumps({"action": choose(message["view"])}), flush=True)
        elif message["type"] in ("end_match", "error"):
            return


if __name__ == "__main__":
    main()
