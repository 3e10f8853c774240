"""``toolview check``: a conformance checker for observation JSON Lines.

Tool authors run it in their own CI: it reports every line that breaks the
contract with its line number, JSON path and reason, and exits 1 if any did.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from toolview.cli.inputs import open_input
from toolview.contract import ObservationError, decode_observation

__all__ = ["Violation", "check_lines", "register", "run"]


class Violation(ObservationError):
    """A contract violation on one numbered line."""

    def __init__(self, line_number: int, error: ObservationError) -> None:
        super().__init__(error.reason, error.path)
        self.line_number = line_number

    def __str__(self) -> str:
        return f"line {self.line_number}: {self.path}: {self.reason}"


def register(subparsers: Any) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check", help="check observation JSON Lines against the contract"
    )
    parser.add_argument("path", nargs="?", default="-", help="a .jsonl file, or - for stdin")
    parser.set_defaults(handler=run)


def check_lines(lines: Iterable[bytes]) -> Iterator[Violation]:
    """Yield a ``Violation`` for every non-blank line that breaks the contract."""
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            decode_observation(line.rstrip(b"\r\n"))  # as `show` reads it: the line, not its end
        except ObservationError as error:
            yield Violation(number, error)


def run(args: argparse.Namespace) -> int:
    """Print each violation, then a count on stderr; exit 0 when every line conforms."""
    violations = 0
    with open_input(args.path) as stream:
        lines = list(stream)
    for violation in check_lines(lines):
        violations += 1
        print(violation)
    checked = sum(1 for line in lines if line.strip())
    print(
        f"{_count(checked, 'observation')} checked, {_count(violations, 'violation')}",
        file=sys.stderr,
    )
    return 1 if violations else 0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
