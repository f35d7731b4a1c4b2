"""Finite floats from exact chip counts: the transforms the observation pieces use.

Chips are exact Python ints of any size (a Cowboy pot doubles or more deal after deal
and reaches 1e78 chips in 100 deals), but an observation is a ``float32`` vector, which
holds nothing above 3.4e38, and ``int / int`` itself raises ``OverflowError`` past
1.8e308. Two transforms turn chips into reward units (``amount / unit``) that stay
finite for any int:

* :func:`symlog_units`, ``sign(x) * ln(1 + |x|)`` of ``x = amount / unit``: the
  Cowboy family's chip pieces, where the log is the natural scale (each deal
  multiplies the pot); 0 stays 0, one ante is 0.69, 1e78 antes is 180;
* :func:`soft_units`: ``x`` itself up to :data:`LINEAR_UNITS` (a million units)
  and logarithmic growth beyond, ``sign(x) * L * (1 + ln(|x| / L))`` (continuous, with
  a continuous slope): the shared betting pieces of stud and Chowaha, whose amounts
  stay far below the bound in any real game (even unlimited stacks add one bet per
  raise), so their values are unchanged, and only absurd options (an ante of 1e40
  chips) would reach the logarithmic part.

Both are odd, strictly increasing and exact where a float can be.

>>> symlog_units(0, 1), round(symlog_units(1, 1), 4), round(symlog_units(-(10**78), 1), 2)
(0.0, 0.6931, -179.6)
>>> soft_units(6, 4), soft_units(-(10**6), 1), round(soft_units(10**400, 2) / LINEAR_UNITS, 2)
(1.5, -1000000.0, 907.53)
"""

from __future__ import annotations

import math

LINEAR_UNITS = 10**6  # soft_units is the identity up to this many reward units
_LOG_LINEAR = math.log(LINEAR_UNITS)
EXACT = 1 << 52  # below this many units a quotient is as exact as a float allows


def symlog_units(amount: int, unit: int) -> float:
    """``sign(x) * ln(1 + |x|)`` of ``x = amount / unit``, for ints of any size."""
    limit = EXACT * unit  # the observation hot path: ordinary amounts take one branch
    if 0 <= amount < limit:
        return math.log1p(amount / unit)
    if -limit < amount < 0:
        return -math.log1p(-amount / unit)
    # past 2**52 units ln(1 + x) = ln(x) to within 1 / x (and amount / unit may overflow)
    value = math.log(abs(amount)) - math.log(unit)
    return value if amount > 0 else -value


def soft_units(amount: int, unit: int) -> float:
    """``amount / unit`` up to :data:`LINEAR_UNITS` in size, then logarithmic growth
    (``L * (1 + ln(|x| / L))``, ``L = LINEAR_UNITS``), for ints of any size."""
    size = abs(amount)
    if size <= LINEAR_UNITS * unit:
        return amount / unit
    value = LINEAR_UNITS * (1.0 + math.log(size) - math.log(unit) - _LOG_LINEAR)
    return value if amount >= 0 else -value


def soft_limit(value: float, limit: float) -> float:
    """``value`` up to ``limit`` in size, then ``limit * (1 + ln(|value| / limit))``:
    the same knee as :func:`soft_units`, for floats (finite for any finite input)."""
    size = abs(value)
    if size <= limit:
        return value
    squashed = limit * (1.0 + math.log(size / limit))
    return squashed if value >= 0 else -squashed
