"""Training support for ``train.py``: the config (``training.config``), the loop
(``training.trainer``) and what it logs (``training.metrics``)."""
