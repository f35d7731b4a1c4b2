"""One private Ray instance on this machine for every test here (loopback only, no
dashboard), shut down after the last one. Each test module skips itself without the
``ray`` extra."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from evaluation.ray_cluster import ray_session

NEEDS_RAY = 'needs the ray extra: pip install -e ".[dev,ray]"'

CPUS = 2


@pytest.fixture(scope="package")
def local_ray() -> Iterator[int]:
    """The CPUs of the running local instance (evaluate.py and the example reuse it)."""
    with ray_session("local", num_cpus=CPUS) as cpus:
        yield cpus
