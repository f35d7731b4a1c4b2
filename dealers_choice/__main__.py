"""``python -m dealers_choice``: the same as the ``dealers-choice`` console command."""

from __future__ import annotations

from dealers_choice.cli import main

raise SystemExit(main())
