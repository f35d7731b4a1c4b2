"""``python play.py``: play against bots in the terminal (dealers-choice play), from the checkout.

A thin script: the command line and the work live in :mod:`evaluation.play` (``--help``).
"""

from evaluation.play import main

if __name__ == "__main__":
    main()
