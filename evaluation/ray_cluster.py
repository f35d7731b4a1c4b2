"""Connecting to Ray: a private instance on this machine, or a cluster.

``ray_session(address)`` is the one place that starts or joins Ray (evaluation on Ray,
``examples/rllib_ppo.py``; the Ray collector of ``train.py`` will use it too):

* ``"local"``: start a private Ray instance on this machine that listens on the
  loopback interface only (127.0.0.1) and has no dashboard, and shut it down at the
  end. Ray normally binds its servers to every interface and advertises the machine's
  network address; its documented switch ``RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0``
  (single-machine mode) makes it use 127.0.0.1 instead, which is set here before Ray
  is imported.
* ``"auto"``: join the cluster that ``ray start --head`` started on this machine.
* ``"ray://HOST:10001"`` (Ray Client) or ``"HOST:6379"``: join a remote cluster. Every
  node needs this project installed (``pip install "dealers-choice[ray]"``, the same
  version), and any checkpoint a bot loads must be at the same path on every node.

If Ray is already initialised (a script called ``ray.init`` itself, for example with a
``runtime_env``), that connection is used as it is and left open.

Ray is imported only inside :func:`ray_session`: the project without the ``ray`` extra
never imports it.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

LOCAL = "local"
INSTALL_HINT = 'Ray is not installed: pip install -e ".[ray]" (or pip install "dealers-choice[ray]")'
SINGLE_MACHINE = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"  # "0": Ray uses 127.0.0.1 for everything


def import_ray() -> Any:
    """The ``ray`` module; a clear ``ValueError`` when the extra is not installed."""
    try:
        import ray
    except ImportError:
        raise ValueError(INSTALL_HINT) from None
    return ray


def _loopback_only() -> None:
    """Make the next local Ray instance listen and advertise on 127.0.0.1 only.

    The variable is read when Ray is imported (and inherited by the processes Ray
    starts); when Ray was imported earlier, its copy of the constant is set too.
    """
    os.environ[SINGLE_MACHINE] = "0"
    constants = sys.modules.get("ray._private.ray_constants")
    if constants is not None:
        constants.ENABLE_RAY_CLUSTER = False


def check_address(address: str) -> str:
    """``address`` if it is one Ray accepts; otherwise a ``ValueError`` naming the forms."""
    if not isinstance(address, str) or not address.strip():
        raise ValueError(
            f"Ray address {address!r} is not allowed: use 'local' (a private instance on this machine), "
            "'auto' (the cluster started here with `ray start --head`), ray://HOST:10001 or HOST:PORT"
        )
    return address.strip()


@contextmanager
def ray_session(address: str = LOCAL, *, num_cpus: int | None = None) -> Iterator[int]:
    """Connect to Ray for the block; yields the CPUs the cluster offers.

    Args:
        address: ``"local"``, ``"auto"``, ``"ray://HOST:10001"`` or ``"HOST:PORT"`` (module docs).
        num_cpus: CPUs of a local instance (default: the cores this process may use).
    """
    address = check_address(address)
    if address == LOCAL:
        _loopback_only()
    ray = import_ray()
    started = False
    if not ray.is_initialized():
        if address == LOCAL:
            from evaluation.runner import available_cores

            ray.init(
                address=LOCAL,
                num_cpus=num_cpus or available_cores(),
                include_dashboard=False,
                logging_level=logging.WARNING,
            )
        else:
            ray.init(address=address, logging_level=logging.WARNING)
        started = True
    try:
        yield max(1, int(ray.cluster_resources().get("CPU", 1)))
    finally:
        if started:
            ray.shutdown()
