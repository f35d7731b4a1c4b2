"""The JSON API behind the page, without HTTP: :class:`App` answers a request given
as its method, path, query and parsed body (``evaluation.web.server`` does the HTTP).

Everything a request names is checked as data before use: files only inside the
folders the server was given (``roots``), bots only of the kinds a request may load,
options through the variant's own validation. State lives in a bounded store of
collections (a file's hands, a watch table, a play table) keyed by random ids; a
refused request changes none of it, and nothing is ever written to disk.
"""

from __future__ import annotations

import io
import json
import secrets
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image

from agents.loading import BUILTIN, PRETRAINED, STYLED, load, pretrained_names
from envs.registry import ENV_SPECS, get_spec
from envs.render import table_image
from envs.variants import get_variant
from evaluation.cli import parse_options
from evaluation.report import clean, format_table
from evaluation.web.hands import Hand, RequestError, read_hands, record_text
from evaluation.web.tables import Table, TableConfig

MAX_COLLECTIONS = 64  # files and tables held at once; the oldest unused goes first
MAX_FILE_BYTES = 16 * 2**20  # a file opened from a root folder
MAX_LISTED = 2000  # rows of a hand list sent at once (the filters narrow it; the count says how many matched)
MAX_SEATS = 20  # the most any variant seats (Chowaha, dealer's choice); each variant checks its own range
READABLE = (".json", ".jsonl", ".phh", ".phhs", ".toml")
IMAGES = {".png": "image/png"}


@dataclass
class Reply:
    """A response: status, content type, body, and a file name for downloads."""

    status: int
    body: bytes
    content_type: str = "application/json"
    filename: str | None = None


def json_reply(data: Any, status: int = 200) -> Reply:
    return Reply(status, json.dumps(clean(data)).encode())


class Files:
    """The folders the server may read. A path is resolved (symbolic links followed)
    and must lie inside one of them: ``..``, absolute paths elsewhere and links out
    are all refused the same way."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = [Path(r).resolve() for r in roots]
        for root in self.roots:
            if not root.is_dir():
                raise ValueError(f"--root {root}: not a folder")

    def resolve(self, path: Any) -> Path:
        if not isinstance(path, str) or not path or "\0" in path or len(path) > 4096:
            raise RequestError("path: expected a file or folder path as text")
        given = Path(path)
        candidate = given if given.is_absolute() else self.roots[0] / given
        try:
            resolved = candidate.resolve()
        except (OSError, RuntimeError):
            raise RequestError(f"path {path[:200]!r} cannot be read") from None
        if not any(resolved == root or resolved.is_relative_to(root) for root in self.roots):
            raise RequestError(f"path {path[:200]!r} is outside the folders this server may read", status=403)
        if not resolved.exists():
            raise RequestError(f"path {path[:200]!r} does not exist", status=404)
        return resolved

    def listing(self, path: Any) -> dict[str, Any]:
        """A folder's subfolders and the files the page can open (or the roots)."""
        if path in (None, ""):
            return {"path": None, "entries": [{"name": str(r), "path": str(r), "kind": "dir"} for r in self.roots]}
        folder = self.resolve(path)
        if not folder.is_dir():
            raise RequestError(f"{path[:200]!r} is not a folder")
        entries = []
        for child in sorted(folder.iterdir(), key=lambda p: (not p.is_dir(), p.name))[:2000]:
            if child.name.startswith("."):
                continue
            kind = "dir" if child.is_dir() else ("file" if child.suffix in (*READABLE, *IMAGES) else None)
            if kind:
                entries.append({"name": child.name, "path": str(child), "kind": kind, "report": _is_report(child)})
        parent = str(folder.parent) if folder not in self.roots else None
        return {"path": str(folder), "parent": parent, "entries": entries, "report": _is_report(folder)}

    def read_text(self, path: Any) -> tuple[str, str]:
        file = self.resolve(path)
        if not file.is_file():
            raise RequestError(f"{path[:200]!r} is not a file")
        if file.stat().st_size > MAX_FILE_BYTES:
            raise RequestError(f"{file.name}: larger than {MAX_FILE_BYTES >> 20} MiB", status=413)
        try:
            return file.name, file.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise RequestError(f"{file.name}: not a UTF-8 text file") from None


def _is_report(path: Path) -> bool:
    return path.is_dir() and (path / "report.json").is_file()


class App:
    """The server's state and every API route.

    Args:
        roots: folders whose files may be read (hand histories, reports, checkpoints).
        bots: extra bot specs a request may name (``module:Class`` specs import code,
            so a request may use only those the person starting the server listed).
    """

    def __init__(self, roots: Sequence[Path], bots: Sequence[str] = (), max_upload: int | None = None) -> None:
        self.files = Files(roots)
        self.extra_bots = list(bots)
        self.max_upload = max_upload
        self.store: OrderedDict[str, Any] = OrderedDict()
        self.lock = threading.Lock()

    # ------------------------------------------------------------- the store
    def _keep(self, item: Any) -> str:
        key = secrets.token_hex(8)
        with self.lock:
            self.store[key] = item
            while len(self.store) > MAX_COLLECTIONS:
                self.store.popitem(last=False)
        return key

    def _get(self, key: str, kind: type | None = None) -> Any:
        with self.lock:
            item = self.store.get(key)
            if item is not None:
                self.store.move_to_end(key)
        if item is None or (kind is not None and not isinstance(item, kind)):
            raise RequestError(
                f"no such {'table' if kind is Table else 'collection'} {key[:20]!r} (the server keeps "
                f"the {MAX_COLLECTIONS} most recent; open it again)",
                status=404,
            )
        return item

    def _hand(self, key: str, index: str) -> Hand:
        hands = self._get(key).hands
        k = _int(index, "hand")
        if not 0 <= k < len(hands):
            raise RequestError(f"hand {k} is not in this collection (0..{len(hands) - 1})", status=404)
        return hands[k]

    # ------------------------------------------------------------- routes
    def handle(self, method: str, parts: list[str], query: dict[str, str], body: Any) -> Reply:
        """Route ``/api/<parts>``; raises :class:`RequestError` for a refused request."""
        route = (method, parts[0] if parts else "", len(parts))
        if route == ("GET", "info", 1):
            return json_reply(self.info())
        if route == ("GET", "files", 1):
            return json_reply(self.files.listing(query.get("path")))
        if route == ("POST", "open", 1):
            name, text = self.files.read_text(_field(body, "path", str))
            return self._collection(name, text)
        if route == ("POST", "upload", 1):
            name = _field(body, "name", str)[:200] or "upload"
            return self._collection(name, _field(body, "text", str))
        if route == ("GET", "collection", 2):
            return json_reply(self.hand_list(parts[1], query))
        if method == "GET" and parts[0] == "hand" and len(parts) >= 3:
            return self._hand_route(parts, query)
        if route == ("POST", "watch", 1):
            table = Table(self._config(body, play=False), self._load_bot)
            return json_reply({"table": self._keep(table), "names": table.names, "session": table.session()})
        if route == ("POST", "watch", 3) and parts[2] == "next":
            table = self._get(parts[1], Table)
            hand = table.watch_hand()
            return json_reply(
                {"index": len(table.hands) - 1, "hand": hand.summary(len(table.hands) - 1), "session": table.session()}
            )
        if route == ("POST", "play", 1):
            table = Table(self._config(body, play=True), self._load_bot)
            status = table.start()
            return json_reply({"table": self._keep(table), **status})
        if route == ("GET", "play", 2):
            return json_reply(self._get(parts[1], Table).status())
        if route == ("POST", "play", 3) and parts[2] in ("act", "deal"):
            table = self._get(parts[1], Table)
            if parts[2] == "deal":
                return json_reply(table.start())
            return json_reply(table.act(_field(body, "action", object)))
        if route == ("GET", "history", 2):
            table = self._get(parts[1], Table)
            fmt = query.get("format", "text")
            text = table.history(fmt)
            return Reply(200, text.encode(), "text/plain; charset=utf-8", f"hands.{'txt' if fmt == 'text' else fmt}")
        if route == ("GET", "report", 1):
            return json_reply(self.report(query.get("path")))
        if route == ("GET", "image", 1):
            return self.image(query.get("path"))
        raise RequestError(f"no API route {method} /api/{'/'.join(parts)[:100]}", status=404)

    def info(self) -> dict[str, Any]:
        variants = []
        for env_id, spec in ENV_SPECS.items():
            v = get_variant(spec.variant)
            variants.append(
                {"name": env_id, "title": v.title, "seats": list(v.seats), "options": sorted(v.option_names)}
            )
        return {
            "variants": variants,
            "bots": [*BUILTIN, "heuristic", *(PRETRAINED + n for n in pretrained_names()), *self.extra_bots],
            "roots": [str(r) for r in self.files.roots],
            "max_upload": self.max_upload,
        }

    def _collection(self, name: str, text: str) -> Reply:
        hands = read_hands(name, text)
        key = self._keep(_Collection(name, hands))
        return json_reply({"collection": key, "name": name, "count": len(hands)})

    def hand_list(self, key: str, query: dict[str, str]) -> dict[str, Any]:
        """The hands of a collection, filtered: ``showdown`` yes/no; ``result``
        won/lost/even for ``seat`` (a seat number or a name in the seats)."""
        hands = self._get(key).hands
        rows = [h.summary(i) for i, h in enumerate(hands)]
        showdown = query.get("showdown", "")
        if showdown not in ("", "yes", "no"):
            raise RequestError("showdown: expected yes, no or nothing")
        if showdown:
            rows = [r for r in rows if r["showdown"] == (showdown == "yes")]
        result = query.get("result", "")
        if result not in ("", "won", "lost", "even"):
            raise RequestError("result: expected won, lost, even or nothing")
        if result:
            who = query.get("seat", "0")
            rows = [r for r in rows if _result_of(r, who) == result]
        name = getattr(self._get(key), "name", "table")
        return {"name": name, "total": len(hands), "matched": len(rows), "hands": rows[:MAX_LISTED]}

    def _hand_route(self, parts: list[str], query: dict[str, str]) -> Reply:
        hand = self._hand(parts[1], parts[2])
        viewer = _viewer(query.get("viewer", "all"))
        if len(parts) == 3:
            return json_reply(hand.frames(viewer))
        if len(parts) == 4 and parts[3] == "record":
            fmt = query.get("format", "json")
            ext = "json" if fmt == "json" else "phh"
            return Reply(200, record_text(hand, fmt).encode(), "text/plain; charset=utf-8", f"hand.{ext}")
        if len(parts) == 5 and parts[3] == "png":
            states = hand.replayed()
            k = _int(parts[4], "frame")
            if not 0 <= k < len(states):
                raise RequestError(f"frame {k} is not in this hand (0..{len(states) - 1})", status=404)
            if viewer is not None and viewer >= hand.record.num_players:
                raise RequestError(f"viewer {viewer}: no such seat")
            buffer = io.BytesIO()
            Image.fromarray(table_image(states[k], viewer)).save(buffer, "PNG")
            return Reply(200, buffer.getvalue(), "image/png")
        raise RequestError("no such hand route", status=404)

    # ------------------------------------------------------------- tables
    def _config(self, body: Any, *, play: bool) -> TableConfig:
        variant = _field(body, "variant", str)
        try:
            get_spec(variant)
        except (KeyError, ValueError):
            raise RequestError(f"unknown variant {variant[:60]!r}; variants: {', '.join(ENV_SPECS)}") from None
        bots = _field(body, "bots", list)
        if not bots or len(bots) > MAX_SEATS or not all(isinstance(b, str) and b for b in bots):
            raise RequestError(f"bots: expected a list of 1 to {MAX_SEATS} bot specs (text)")
        players = body.get("players")
        if players is not None and (type(players) is not int or not 2 <= players <= MAX_SEATS):
            raise RequestError(f"players: expected an int 2..{MAX_SEATS} or nothing (the variant allows fewer)")
        seed = body.get("seed")
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**32):
            raise RequestError("seed: expected an int 0..2**32-1 or nothing")
        seat = body.get("seat", 0) if play else None
        if play and type(seat) is not int:
            raise RequestError("seat: expected an int")
        return TableConfig(variant, tuple(bots), players, _options(body.get("options")), seed, seat)

    def _load_bot(self, spec: str, seed: int | None) -> Any:
        """A bot a request may name: built-in, heuristic (with a style), shipped, one
        listed with ``--bot``, or a checkpoint inside the root folders."""
        allowed = spec in BUILTIN or spec == "heuristic" or spec.startswith((STYLED, PRETRAINED))
        if not allowed and spec not in self.extra_bots:
            if spec.endswith((".pt", ".pth")) or "/" in spec:
                spec = str(self.files.resolve(spec))
            else:
                raise RequestError(
                    f"bot {spec[:80]!r} is not allowed here: use random, call, heuristic[:style], "
                    "pretrained:<variant>, a checkpoint inside the server's folders, or a spec the server "
                    "was started with (--bot)"
                )
        return load(spec, seed=seed)

    # ------------------------------------------------------------- reports
    def report(self, path: Any) -> dict[str, Any]:
        """An ``evaluate.py`` output folder: its report, the terminal table, and which
        of its files exist (the plot, the hand histories)."""
        folder = self.files.resolve(path)
        if folder.is_file():
            folder = folder.parent
        file = folder / "report.json"
        if not file.is_file():
            raise RequestError(f"{folder}: no report.json (not an evaluate.py output folder)", status=404)
        try:
            report = json.loads(file.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as err:
            raise RequestError(f"{file}: not a JSON report ({err})") from None
        if not isinstance(report, dict) or ("bots_summary" not in report and "forfeits" not in report):
            raise RequestError(f"{file}: not an evaluate.py report (no bots_summary)")
        try:
            table = format_table(report)
        except (KeyError, TypeError, ValueError, IndexError) as err:
            raise RequestError(f"{file}: a field is missing or malformed ({type(err).__name__}: {err})") from None
        present = {
            name: str(folder / name) for name in ("report.png", "hands.jsonl", "hands.txt") if (folder / name).is_file()
        }
        return {"folder": str(folder), "report": report, "table": table, "files": present}

    def image(self, path: Any) -> Reply:
        file = self.files.resolve(path)
        kind = IMAGES.get(file.suffix.lower())
        if kind is None or not file.is_file():
            raise RequestError(f"{str(path)[:200]!r}: only PNG images are served")
        if file.stat().st_size > MAX_FILE_BYTES:
            raise RequestError(f"{file.name}: larger than {MAX_FILE_BYTES >> 20} MiB", status=413)
        return Reply(200, file.read_bytes(), kind)


@dataclass
class _Collection:
    name: str
    hands: list[Hand]


def _field(body: Any, name: str, kind: type) -> Any:
    if not isinstance(body, dict):
        raise RequestError("the request body must be a JSON object")
    if name not in body:
        raise RequestError(f"{name}: missing from the request")
    value = body[name]
    if kind is not object and not isinstance(value, kind):
        raise RequestError(f"{name}: expected {kind.__name__}, got {type(value).__name__}")
    return value


def _int(text: str, what: str) -> int:
    if not text.isdigit() or len(text) > 9:
        raise RequestError(f"{what}: expected a number, got {text[:20]!r}")
    return int(text)


def _viewer(text: str) -> int | None:
    """``all`` (every card), ``public`` (-1) or a seat number."""
    if text == "all":
        return None
    if text == "public":
        return -1
    return _int(text, "viewer (all, public or a seat)")


def _options(value: Any) -> dict[str, Any]:
    """Options as a JSON object, or ``key=value`` texts as ``--option`` takes them."""
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return value
    if isinstance(value, str):
        value = [part.strip() for part in value.replace("\n", ",").split(",") if part.strip()]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        try:
            return parse_options(value)
        except ValueError as err:
            raise RequestError(f"options: {err}") from None
    raise RequestError("options: expected an object, or key=value texts")


def _result_of(row: dict[str, Any], who: str) -> str:
    names = row["names"]
    seats = [s for s, n in enumerate(names) if n == who] or ([int(who)] if who.isdigit() else [])
    if not seats or seats[0] >= len(names) or row["payoffs"] is None:
        return ""
    p = row["payoffs"][seats[0]]
    return "won" if p > 0 else "lost" if p < 0 else "even"
