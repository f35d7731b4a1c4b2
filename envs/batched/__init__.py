"""The batched engine: thousands of stud tables stepped at once as torch tensors (docs/batched.md)."""
