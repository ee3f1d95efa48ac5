"""Percentiles of measured figures, as every benchmark of the product states them."""

from __future__ import annotations

import math
from collections.abc import Iterable


def percentile(values: Iterable[float], q: float) -> float:
    """The ``q``-th percentile (0 to 100) of ``values``, interpolated between its two nearest values; nan for none.

    The one percentile of the benchmarks (``llm``, ``rag``, ``chat``): numpy's default and
    ``statistics.quantiles(method="inclusive")``, so the 50th is the median.
    """
    ordered = sorted(values)
    if not ordered:
        return math.nan
    position = q / 100 * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
