"""Config files: reading a TOML file, and the configs that ship with the package.

``configs/*.toml`` (the default config and one per variant) ship inside the package as
``training/configs/`` (pyproject's package-dir), so ``dealers-choice train --config
razz`` works from any folder: a ``--config`` that is not a file is looked up by name
among them. In a checkout the same files are ``configs/`` beside the packages.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any


class ConfigError(ValueError):
    """A setting is unknown, of the wrong type, or out of range (also: a config file
    that cannot be read)."""


# an install (the wheel puts configs/ here), then a checkout (configs/ beside the packages)
CONFIG_DIRS = (Path(__file__).resolve().parent / "configs", Path(__file__).resolve().parents[1] / "configs")


def shipped_dir() -> Path | None:
    """The folder of the shipped configs, or None if this copy has none."""
    return next((d for d in CONFIG_DIRS if (d / "default.toml").is_file()), None)


def shipped_configs() -> dict[str, Path]:
    """Shipped configs by name (``default``, ``razz``, ``toy_stud_mmd``...)."""
    folder = shipped_dir()
    return {} if folder is None else {p.stem: p for p in sorted(folder.glob("*.toml"))}


def config_path(path: str | Path) -> Path:
    """``path`` if it names a file; else the shipped config of that name (``razz``,
    ``razz.toml`` or ``configs/razz.toml`` from any folder); else ``path`` itself, which
    :func:`read_toml` then reports as missing with the shipped names."""
    given = Path(path)
    if given.exists():
        return given
    name = given.name.removesuffix(".toml")
    shipped = shipped_configs().get(name)
    return shipped if shipped is not None and given.parent.name in ("", "configs") else given


def read_toml(path: Path) -> dict[str, Any]:
    """A config file's TOML document; anything unreadable is a ConfigError saying why."""
    shown_path = repr(str(path)[:200])
    see = f"see configs/, or name a shipped config: {', '.join(shipped_configs()) or 'none in this copy'}"
    if path.is_dir():
        raise ConfigError(f"--config {shown_path} is a folder; give a TOML file ({see})")
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"no config file at {shown_path} ({see})") from None
    except UnicodeDecodeError as err:
        raise ConfigError(
            f"{shown_path} is not a UTF-8 text file (byte {err.object[err.start]:#04x} at offset {err.start}); "
            "a config is TOML text"
        ) from None
    except OSError as err:
        raise ConfigError(f"cannot read config file {shown_path}: {err.strerror or err}") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None
