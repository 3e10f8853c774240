"""``toolview check``: a conformance checker for observation JSON Lines.

Tool authors run it in their own CI: it reports every line that breaks the
contract with its line number, JSON path and reason, and exits 1 if any did.
It also checks what the wire shape leaves open but a surface will not accept:
a built-in kind's props (``validate_props``: a surface falls back to the text
for them) and a leading byte order mark (many JSON readers refuse it). Those
are *warnings* — the observation is valid, the view is poorer — reported and
counted, exit 0; ``--strict`` makes them violations. Binary input (a NUL
byte in the first line) is refused whole (exit 2) rather than reported line
by line; a raw NUL on a later line is that line's violation.

An ``at`` must be a time that exists: the wire pattern takes ``2026-02-31T…Z``,
``check`` does not (a violation at ``$.at``; every surface would ignore it).
The counts line says how many observations were ``usage`` (model turns'
tokens), so a producer sees its usage reached the stream.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from toolview.cli.inputs import open_input, refuse_binary, strip_bom
from toolview.contract import (
    Descriptor,
    Observation,
    ObservationError,
    PropsError,
    ToolResult,
    Usage,
    decode_observation,
    validate_props,
)
from toolview.contract.moments import parse_at

__all__ = ["Violation", "check_lines", "register", "run"]

_NO_SUCH_TIME = "no such date or time (an RFC 3339 time in UTC that exists)"

_BOM = ObservationError("a UTF-8 byte order mark starts the input (many JSON readers refuse it)")


class Violation(ObservationError):
    """A contract violation (or, with ``warning``, a poorer view) on one numbered line."""

    def __init__(self, line_number: int, error: ObservationError, *, warning: bool = False) -> None:
        super().__init__(error.reason, error.path)
        self.line_number = line_number
        self.warning = warning

    def __str__(self) -> str:
        flag = "warning: " if self.warning else ""
        return f"line {self.line_number}: {flag}{self.path}: {self.reason}"


def register(subparsers: Any) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check", help="check observation JSON Lines against the contract"
    )
    parser.add_argument("path", nargs="?", default="-", help="a .jsonl file, or - for stdin")
    parser.add_argument(
        "--strict",
        action="store_true",
        help="count warnings (a built-in kind's invalid props, a byte order mark) as violations",
    )
    parser.set_defaults(handler=run)


def check_lines(
    lines: Iterable[bytes], *, strict: bool = False, kinds: dict[str, int] | None = None
) -> Iterator[Violation]:
    """Yield a ``Violation`` for every non-blank line that breaks the contract.

    A built-in kind's invalid props come as a warning (``strict``: a violation).
    ``kinds``, if given, counts the valid observations by kind.
    """
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            observation = decode_observation(line.rstrip(b"\r\n"))  # as `show` reads the line
        except ObservationError as error:
            yield Violation(number, error)
            continue
        if isinstance(observation.at, str) and parse_at(observation.at) is None:
            yield Violation(number, ObservationError(_NO_SUCH_TIME, "$.at"))
            continue
        if kinds is not None:
            kind = str(observation.__struct_config__.tag)
            kinds[kind] = kinds.get(kind, 0) + 1
        problem = _props_problem(observation)
        if problem is not None:
            yield Violation(number, problem, warning=not strict)


def _props_problem(observation: Observation) -> ObservationError | None:
    """Why a result's built-in kind would not render from its props, or None."""
    descriptor = observation.descriptor if isinstance(observation, ToolResult) else None
    if not isinstance(descriptor, Descriptor):
        return None
    try:
        validate_props(descriptor.kind, descriptor.props)
    except PropsError as exc:
        reason, _, where = str(exc).rpartition(" - at `$")
        path = "$.descriptor.props" + where.rstrip("`") if reason else "$.descriptor.props"
        return ObservationError(f"{descriptor.kind} props: {reason or exc}", path)
    return None


def run(args: argparse.Namespace) -> int:
    """Print each finding, then the counts on stderr; exit 0 when no line violates."""
    with open_input(args.path) as stream:
        data = stream.read()
    refuse_binary(data, args.path)
    data, had_bom = strip_bom(data)
    lines = data.split(b"\n")  # as `show` splits them
    findings = [Violation(1, _BOM, warning=not args.strict)] if had_bom else []
    kinds: dict[str, int] = {}
    findings += check_lines(lines, strict=args.strict, kinds=kinds)
    for finding in findings:
        print(finding)
    violations = sum(1 for finding in findings if not finding.warning)
    warnings = len(findings) - violations
    checked = sum(1 for line in lines if line.strip())
    usage = kinds.get(str(Usage.__struct_config__.tag), 0)
    of_which = f" ({usage} usage)" if usage else ""
    checked_words = f"{_count(checked, 'observation')} checked{of_which}"
    counts = f"{checked_words}, {_count(violations, 'violation')}"
    print(counts + (f", {_count(warnings, 'warning')}" if warnings else ""), file=sys.stderr)
    return 1 if violations else 0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"
