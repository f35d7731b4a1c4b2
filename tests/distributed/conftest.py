"""One private Ray instance on this machine for every test here (loopback only, no
dashboard), shut down after the last one. Skipped without the ``ray`` extra."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

pytest.importorskip("ray", reason='needs the ray extra: pip install -e ".[dev,ray]"')

from agents.ray_cluster import ray_session

CPUS = 2


@pytest.fixture(scope="package")
def local_ray() -> Iterator[int]:
    """The CPUs of the running local instance (evaluate.py and the example reuse it)."""
    with ray_session("local", num_cpus=CPUS) as cpus:
        yield cpus
