"""One torch thread for every batched test (restored after each).

The batched engine's tests step small batches: thousands of tiny tensor operations.
With more than one intra-op thread, each small reduction waits on an OpenMP barrier,
and on a shared, loaded machine a descheduled worker turns that into milliseconds
per operation (a test measured 25 s with two threads and 3.5 s with one)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import torch


@pytest.fixture(autouse=True)
def _one_torch_thread() -> Iterator[None]:
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)
