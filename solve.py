"""``python solve.py``: CFR on toy stud (dealers-choice solve), from the checkout.

A thin script: the command line and the work live in :mod:`training.solve` (``--help``).
"""

from training.solve import main

if __name__ == "__main__":
    main()
