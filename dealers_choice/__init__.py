"""Dealer's Choice: the console command (``dealers-choice``) and its subcommands."""
