"""A manifest of bots for a tournament of programs: one file, read as data.

TOML (``.toml``) or JSON (``.json``), a list ``bots`` of tables, each one bot:

=============  ==============================================================
key            meaning
=============  ==============================================================
``name``       how reports name it (required for programs; unique; no ``,``
               ``]`` or ``=``)
``command``    a program: its command line (a string, split like a shell
               would, or a list of arguments), run without a shell
``cwd``        the program's working folder, relative to the manifest's folder
               (default: the manifest's folder)
``language``   informational (``c``, ``python``, ``javascript``...)
``address``    a bot that serves: ``tcp://host:port`` (instead of ``command``)
``remote``     ``true``: the address may be another machine's (default: loopback only)
``spec``       one of this project's bots (``heuristic``, ``pretrained:stud``);
               reports name it by its spec
=============  ==============================================================

>>> import json, pathlib, tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp()).resolve()
>>> _ = (folder / "bots.json").write_text(json.dumps({"bots": [
...     {"name": "c", "command": "./skeleton", "language": "c"}, {"spec": "heuristic"}]}))
>>> [s.replace(str(folder), "DIR") for s in load_manifest(folder / "bots.json")]
['cmd[name=c,cwd=DIR,language=c]:./skeleton', 'heuristic']
"""

from __future__ import annotations

import json
import shlex
import tomllib
from pathlib import Path
from typing import Any

from evaluation.external import parse_spec

KEYS = {"name", "command", "cwd", "language", "address", "remote", "spec"}
KINDS = ("command", "address", "spec")
FORBIDDEN = set(",]=")  # they would end an option of the bot's spec


def load_manifest(path: str | Path) -> list[str]:
    """The bot specs a manifest lists, in order; a ``ValueError`` names the file, the
    entry and what is wrong."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        raise ValueError(f"cannot read the manifest {str(path)!r}: {err.strerror or err}") from None
    try:
        data = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as err:
        raise ValueError(
            f"the manifest {str(path)!r} is not valid {'JSON' if path.suffix == '.json' else 'TOML'}: {err}"
        ) from None
    bots = data.get("bots") if isinstance(data, dict) else None
    if not isinstance(bots, list) or not bots:
        raise ValueError(f"the manifest {str(path)!r} has no bots: expected a list 'bots' of tables ([[bots]] in TOML)")
    specs = [_spec(entry, i, path) for i, entry in enumerate(bots)]
    names = [n for n in (_name(e) for e in bots) if n]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"the manifest {str(path)!r} names more than one bot {', '.join(map(repr, repeated))}")
    return specs


def _name(entry: Any) -> str | None:
    return entry.get("name") if isinstance(entry, dict) else None


def _spec(entry: Any, index: int, path: Path) -> str:
    where = f"the manifest {str(path)!r}, bot {index + 1}"
    if not isinstance(entry, dict):
        raise ValueError(f"{where}: expected a table of keys, not {type(entry).__name__}")
    unknown = sorted(set(entry) - KEYS)
    if unknown:
        raise ValueError(f"{where}: unknown keys {', '.join(unknown)}; allowed: {', '.join(sorted(KEYS))}")
    kinds = [k for k in KINDS if k in entry]
    if len(kinds) != 1:
        raise ValueError(f"{where}: give exactly one of command, address or spec")
    if not isinstance(entry.get("remote", False), bool) or ("remote" in entry and "address" not in entry):
        raise ValueError(f"{where}: remote is true or false, and only for an address")
    for key, value in entry.items():
        if key not in ("command", "remote") and not isinstance(value, str):
            raise ValueError(f"{where}: {key} must be a string, not {type(value).__name__}")
    if kinds[0] == "spec":
        if set(entry) != {"spec"}:
            raise ValueError(f"{where}: a spec entry takes no other keys (reports name it by its spec)")
        return str(entry["spec"])
    name = entry.get("name")
    if not name or FORBIDDEN & set(name):
        raise ValueError(f"{where}: a program needs a name without ',', ']' or '=' (got {name!r})")
    options = [f"name={name}"]
    if kinds[0] == "address":
        if "cwd" in entry:
            raise ValueError(f"{where}: cwd is for a command, not an address")
        address = str(entry["address"])
        if not address.startswith("tcp://"):
            raise ValueError(f"{where}: address {address!r} is not tcp://host:port")
        options += [f"language={entry['language']}"] if "language" in entry else []
        options += ["remote=yes"] if entry.get("remote") else []
        spec = f"tcp[{','.join(options)}]://{address[len('tcp://') :]}"
    else:
        command = entry["command"]
        if isinstance(command, list) and command and all(isinstance(a, str) for a in command):
            command = shlex.join(command)
        if not isinstance(command, str) or not command.strip():
            raise ValueError(f"{where}: command must be a command line or a list of arguments")
        cwd = (path.parent / entry.get("cwd", ".")).resolve()
        if not cwd.is_dir():
            raise ValueError(f"{where}: its working folder {str(cwd)!r} does not exist")
        options.append(f"cwd={cwd}")
        options += [f"language={entry['language']}"] if "language" in entry else []
        if any(FORBIDDEN & set(o.partition("=")[2]) for o in options):
            raise ValueError(f"{where}: its cwd or language holds ',', ']' or '=', which a bot spec cannot carry")
        spec = f"cmd[{','.join(options)}]:{command}"
    try:
        parse_spec(spec)  # the spec it becomes must parse (a command line shlex cannot split fails here)
    except ValueError as err:
        hint = " (in a manifest: remote = true)" if "loopback" in str(err) else ""
        raise ValueError(f"{where}: {err}{hint}") from None
    return spec
