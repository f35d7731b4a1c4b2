"""``python -m envs``: deal a few seven-card hands and describe them (:mod:`envs.deal`)."""

from __future__ import annotations

from envs.deal import main

raise SystemExit(main())
