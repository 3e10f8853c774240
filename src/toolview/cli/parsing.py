"""The command line's parser: argparse, with a "did you mean" on every mistake.

Why: a mistyped flag is the most common command-line error, and argparse
(before Python 3.14's ``suggest_on_error``) answers ``toolview show --surfce
text`` with the *top-level* usage and "unrecognized arguments", which says
neither which command was wrong nor what was meant. ``Parser`` reports an
unknown option on the parser of the (sub)command that received it — its own
usage, and the closest option it has — and an unknown choice (a subcommand's
name, ``--surface termnal``) with the closest choice. ``difflib`` is imported
only on that error path: ``toolview --help`` stays light.
"""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any

__all__ = ["Parser", "closest", "terminal_columns"]

_OWNER = "_toolview_unrecognized_by"  # the parser that left arguments unparsed


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` most likely misspells, or None when none is close."""
    from difflib import get_close_matches

    found = get_close_matches(word, list(candidates), n=1, cutoff=0.6)
    return found[0] if found else None


def terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` says it: ``COLUMNS``, the
    standard output's terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        columns = 0
    return columns or 80


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose errors name the right command and a likely fix.

    Subparsers are made of the same class (``add_subparsers`` uses the
    parent's type), so every command's parser behaves alike.
    """

    def _get_formatter(self) -> argparse.HelpFormatter:
        """argparse's formatter, its width found without ``shutil``.

        Why: argparse makes a formatter for every argument it registers, and
        its own asks ``shutil.get_terminal_size`` — importing ``shutil`` (and
        with it ``bz2``, ``lzma`` and ``fnmatch``, ~7 ms of CPU) on every run
        of every command. The width is the one ``shutil`` would give.
        """
        make: Any = self.formatter_class  # typeshed's protocol names only ``prog``
        formatter: argparse.HelpFormatter = make(prog=self.prog, width=terminal_columns() - 2)
        return formatter

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras and not hasattr(parsed, _OWNER):
            setattr(parsed, _OWNER, self)  # the innermost parser returns first: it is the owner
        return parsed, extras

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        owner: Parser = getattr(parsed, _OWNER, self)
        if hasattr(parsed, _OWNER):
            delattr(parsed, _OWNER)
        if extras:
            owner.error(owner.unrecognized(extras))
        return parsed

    def unrecognized(self, extras: Sequence[str]) -> str:
        """argparse's message, with the closest known option to the first unknown one."""
        message = f"unrecognized arguments: {' '.join(extras)}"
        flags = [word.split("=", 1)[0] for word in extras if word[:1] == "-" and len(word) > 2]
        known = [flag for action in self._actions for flag in action.option_strings]
        guess = next((found for flag in flags if (found := closest(flag, known))), None)
        return f"{message} (did you mean {guess}?)" if guess else message

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        choices = action.choices
        if choices is None or value in choices:
            return
        names = ", ".join(map(repr, choices))
        message = f"invalid choice: {value!r} (choose from {names})"
        guess = closest(value, map(str, choices)) if isinstance(value, str) else None
        if guess is not None:
            message += f"; did you mean {guess}?"
        raise argparse.ArgumentError(action, message)
