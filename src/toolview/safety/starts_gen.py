"""The generator of ``safety.starts``: kept apart so nothing at run time imports it.

Why a module of its own: it reads every secret pattern (``safety.secrets``),
which itself reads the table through ``anchors`` — beside ``anchors`` it
would make an import loop. Only the generator's command and its test import it.
"""

from __future__ import annotations

from toolview.safety.anchors import read_starts

__all__ = ["starts_table"]


def starts_table() -> str:
    """The source of ``safety.starts``: every secret pattern's starts, read from its regex.

    Regenerate after editing a pattern (a stale table is only slower, never
    wrong; tests/safety/test_starts.py says when it is stale):
    ``python -c "from toolview.safety.starts_gen import starts_table; print(starts_table(), end='')"
    > starts.py``, then ``ruff format`` it (the module is imported before the file is written).
    """
    from toolview.safety.secrets import SECRET_PATTERNS

    rows = "".join(
        f"    ({p.regex.pattern!r}, {p.regex.flags}): {read_starts(p.regex)!r},\n"
        for p in SECRET_PATTERNS
    )
    return (
        "# ruff: noqa: E501\n"
        '"""The literal starts of the secret patterns, read ahead by ``starts_gen``.\n\n'
        "Generated: do not edit. Keyed by each regex's source and flags; a regex not here\n"
        '(an edited pattern) is read at run time. See ``anchors.literal_starts``.\n"""\n\n'
        "from typing import Final\n\n"
        '__all__ = ["KNOWN_STARTS"]\n\n'
        "KNOWN_STARTS: Final[dict[tuple[str, int], tuple[str, ...] | None]] = {\n"
        f"{rows}}}\n"
    )
