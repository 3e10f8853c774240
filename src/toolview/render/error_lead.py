"""Whether an error's own text is drawn before its kind's body.

A failed call keeps its kind's body — a patch that did not apply still shows
the diff it proposed, a failed command its output and exit code — but the
error's text is often something that body does not hold: "apply_patch
verification failed: …" is in no line of the diff, so drawing the kind alone
hides why the call failed. That text is then drawn first. When the body
draws the text itself (a command's output is its stdout and stderr, an MCP
error's text is its content) it is not repeated: such a body shows the text
from its first line, while a message about the failure starts with a line of
its own, so the first non-blank line of the text decides.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import msgspec

__all__ = ["holds_text"]

_BUDGET: Final = 8 * 1024 * 1024  # characters of props read; past it, say "not held"


def holds_text(props: object, text: str) -> bool:
    """Whether the first non-blank line of ``text`` is a line of some string in ``props``.

    Lines compare without their surrounding spaces. Props too large to read
    within the budget count as not holding it: the text is then drawn, as
    showing it twice is better than hiding it.
    """
    first = next((line.strip() for line in text.splitlines() if line.strip()), None)
    if first is None:
        return True
    read = 0
    for string in _strings(props):
        read += len(string)
        if read > _BUDGET:
            return False
        if first in string and any(line.strip() == first for line in string.splitlines()):
            return True
    return False


def _strings(props: object) -> Iterator[str]:
    """Every string in ``props`` (a props struct or raw JSON), depth first, without recursion."""
    try:
        stack: list[object] = [msgspec.to_builtins(props)]
    except (TypeError, ValueError):  # raw props of a custom kind that are not plain JSON
        return
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            yield value
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
