"""The subcommands of ``dealers-choice``: each module has ``DESCRIPTION``, ``build_parser`` and ``main``."""
