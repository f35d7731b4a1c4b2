"""Subcommands of ``dealers-choice``: each module exposes ``DESCRIPTION``, ``build_parser`` and ``main``."""
