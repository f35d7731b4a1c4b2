"""One process per run folder: ``train.py`` holds ``<run>/run.lock`` for the whole run.

Two processes writing the same run (say, ``--resume`` typed twice) would overwrite
each other's checkpoints and TensorBoard steps without a word. The lock file holds
who owns the run (pid, host, start time) for the message the second process shows,
but the lock itself is an exclusive ``fcntl.flock`` on that file: the kernel drops it
when its process dies in any way (SIGKILL included), so a lock left by a dead process
is recognised for certain (no guessing from pids, which the system reuses) and is
taken over with a warning. The file is deleted when the run ends.

Where ``fcntl`` does not exist (Windows) the file's exclusive creation is the lock;
a file left by a killed run must then be deleted by hand (the message says so).
"""

from __future__ import annotations

import json
import os
import socket
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = "run.lock"
ATTEMPTS = 10  # a lock file deleted by its owner between our open and our flock is reopened


class RunLockedError(RuntimeError):
    """The run folder cannot be locked: another live process is training in it (or the
    lock file cannot be created there)."""


class RunLock:
    """Exclusive ownership of a run folder (a context manager).

    Args:
        run_dir: an existing run folder.
        warn: where the note about a dead owner's lock goes (stderr by default).
    """

    def __init__(self, run_dir: str | Path, *, warn: Any = None) -> None:
        self.run_dir = Path(run_dir)
        self.path = self.run_dir / LOCK_NAME
        self.warn = warn if warn is not None else lambda text: print(text, file=sys.stderr)
        self.fd: int | None = None

    def __enter__(self) -> RunLock:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.release()

    def acquire(self) -> None:
        """Take the lock, or raise :class:`RunLockedError` naming its live owner."""
        if fcntl is None:  # pragma: no cover - Windows
            self._acquire_by_creation()
            return
        for _ in range(ATTEMPTS):
            try:
                fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as err:
                raise RunLockedError(f"cannot create the lock file {self.path}: {err.strerror or err}") from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # held by a live process
                owner = _read(fd)
                os.close(fd)
                raise RunLockedError(self._in_use(owner)) from None
            if _same_file(fd, self.path):
                self._take(fd)
                return
            os.close(fd)  # its owner deleted it while we waited: lock the new one
        raise RunLockedError(f"could not lock {self.path}: another process keeps recreating it")

    def release(self) -> None:
        """Delete the lock file and drop the lock (deleting first: whoever opened the old
        file meanwhile sees that it is gone and locks a new one)."""
        if self.fd is None:
            return
        try:
            self.path.unlink(missing_ok=True)
        finally:
            os.close(self.fd)
            self.fd = None

    def _take(self, fd: int) -> None:
        """Record ourselves as the owner, after a warning if a dead process owned it."""
        previous = _read(fd)
        if previous:
            self.warn(
                f"train.py: warning: run folder {self.run_dir} was locked by {_describe(previous)}, which is no "
                "longer running (killed?); taking the lock over"
            )
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(_me()).encode(), 0)
        self.fd = fd

    def _in_use(self, owner: dict[str, Any]) -> str:
        who = _describe(owner) if owner else "another process (it is just starting)"
        return (
            f"run folder {self.run_dir} is in use by {who}; wait for it to finish or stop it "
            "(two processes on one run overwrite each other's checkpoints and logs)"
        )

    def _acquire_by_creation(self) -> None:  # pragma: no cover - Windows
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            owner = json.loads(self.path.read_text() or "{}")
            raise RunLockedError(
                self._in_use(owner) + f"; if that process is gone, delete {self.path} and try again"
            ) from None
        os.write(fd, json.dumps(_me()).encode())
        self.fd = fd


def _me() -> dict[str, Any]:
    return {"pid": os.getpid(), "host": socket.gethostname(), "started": time.strftime("%Y-%m-%d %H:%M:%S")}


def _describe(owner: dict[str, Any]) -> str:
    """``pid 4242 on host (started 2026-12-01 10:00:00)``."""
    pid, host, started = (str(owner.get(key, "?"))[:64] for key in ("pid", "host", "started"))
    return f"pid {pid} on {host} (started {started})"


def _read(fd: int) -> dict[str, Any]:
    """The owner recorded in the lock file ({} if empty or unreadable)."""
    try:
        data = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
    except (ValueError, UnicodeDecodeError):
        return {}
    return data if isinstance(data, dict) else {}


def _same_file(fd: int, path: Path) -> bool:
    """Whether ``path`` still names the file open as ``fd``."""
    try:
        now = os.stat(path)
    except FileNotFoundError:
        return False
    mine = os.fstat(fd)
    return (now.st_dev, now.st_ino) == (mine.st_dev, mine.st_ino)
