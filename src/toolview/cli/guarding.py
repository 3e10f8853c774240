"""``--guard FILE`` for the calls toolview itself makes (``run``, ``mcp call``).

Why one module: every command that makes a call must do the same three things
in the same order — load *every* rules file before anything runs (one broken
file stops all, naming its line), ask the guards about the call, and on a
refusal show the receipt and run nothing (exit 126).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from toolview.contract import ToolCall, ToolRefused
from toolview.guards import AllGuards, Guard, GuardFileError, Refuse, load_rule_guard
from toolview.guards import refusal_observation as _refusal

__all__ = [
    "EXIT_BROKEN_GUARD",
    "EXIT_REFUSED",
    "GuardFileError",
    "add_guard_option",
    "broken_guard",
    "check_call",
    "load_guards",
]

EXIT_REFUSED: Final = 126
EXIT_BROKEN_GUARD: Final = 2


def add_guard_option(parser: argparse.ArgumentParser) -> None:
    """Add the repeatable ``--guard FILE`` option."""
    parser.add_argument(
        "--guard",
        metavar="FILE",
        action="append",
        default=[],
        help="a TOML rules file; a refused call is not made (repeatable, first refusal wins)",
    )


def load_guards(paths: Sequence[str], cwd: str | None = None) -> Guard | None:
    """Every rules file, loaded before anything runs; None without any.

    Raises ``GuardFileError`` (naming the file and line) for the first broken one.
    """
    where = cwd if cwd is not None else str(Path.cwd())
    guards = [load_rule_guard(path, cwd=where) for path in paths]
    if not guards:
        return None
    return guards[0] if len(guards) == 1 else AllGuards(guards)


def broken_guard(prog: str, error: GuardFileError) -> int:
    """Say which rules file is broken and where; the exit code for it."""
    print(f"{prog}: broken guard, nothing was run: {error}", file=sys.stderr)
    return EXIT_BROKEN_GUARD


def check_call(guard: Guard | None, call: ToolCall) -> ToolRefused | None:
    """The ``tool-refused`` observation when ``guard`` refuses ``call``, else None."""
    if guard is None:
        return None
    decision = guard.check(call)
    return _refusal(call, decision) if isinstance(decision, Refuse) else None
