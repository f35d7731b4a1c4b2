"""The ``dealers-choice`` command line: one entry point, one module per subcommand."""
