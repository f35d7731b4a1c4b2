"""``python evaluate.py``: head-to-head evaluation of bots (dealers-choice evaluate), from the checkout.

A thin script: the command line and the work live in :mod:`evaluation.head_to_head` (``--help``).
"""

from evaluation.head_to_head import main

if __name__ == "__main__":
    main()
