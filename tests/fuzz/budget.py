"""How many cases each fuzz target runs, and a count of how many it did.

CI runs ``TOOLVIEW_FUZZ_EXAMPLES`` (default 200) cases per target; by hand,
``TOOLVIEW_FUZZ_EXAMPLES=20000 pytest tests/fuzz`` runs the long campaign.
Every case a target runs is counted, so the figures in docs/reliability.md
come from the run itself (printed at the end of the session, and written as
JSON to ``TOOLVIEW_FUZZ_REPORT`` when that is set).
"""

from __future__ import annotations

import functools
import os
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import settings

__all__ = ["COUNTS", "EXAMPLES", "fuzz"]

F = TypeVar("F", bound=Callable[..., Any])


def _examples() -> int:
    raw = os.environ.get("TOOLVIEW_FUZZ_EXAMPLES", "200")
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"TOOLVIEW_FUZZ_EXAMPLES must be an integer, not {raw!r}") from None
    if value < 1:
        raise ValueError("TOOLVIEW_FUZZ_EXAMPLES must be at least 1")
    return value


EXAMPLES = _examples()
COUNTS: Counter[str] = Counter()


def fuzz(target: str, *, share: float = 1.0) -> Callable[[F], F]:
    """Count every case run against ``target``; run ``share`` of the budget.

    Put it *below* ``@given`` so it wraps the function Hypothesis calls per case.
    ``share`` trims targets whose single case is expensive (a full render on
    four surfaces) so the CI run stays near a minute.
    """

    def wrap(test: F) -> F:
        @functools.wraps(test)
        def counted(*args: Any, **kwargs: Any) -> Any:
            COUNTS[target] += 1
            return test(*args, **kwargs)

        limit = max(1, int(EXAMPLES * share))
        return settings(max_examples=limit)(counted)  # type: ignore[return-value]

    return wrap
