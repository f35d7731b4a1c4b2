"""The batched engine: thousands of stud tables stepped at once as torch tensors.

``envs.batched.make("stud", num_tables=4096)`` builds a :class:`TableBatch`;
``reset(seed=...)`` and ``step(actions)`` return a :class:`BatchStep` of tensors
(observation, action mask, seat, rewards, done). See docs/batched.md.
"""

from envs.batched.spec import NoBatchedFormError
from envs.batched.table import BatchedIllegalActionError, BatchStep, TableBatch, make

__all__ = ["BatchStep", "BatchedIllegalActionError", "NoBatchedFormError", "TableBatch", "make"]
