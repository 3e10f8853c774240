"""``toolview doctor``: the record types in your sessions that no reader maps, per agent.

Why a command of its own rather than ``sessions --check``: ``sessions`` sums
up each session as ``show`` maps it, and a type no reader knows maps to
nothing — it cannot appear there. ``doctor`` reads the agents' raw records
instead (``cli.record_census``), across all of an agent's sessions, and says
which reader plug-ins were skipped and why: the two ways a session goes
half-invisible. Each unknown type comes with its count and the first place it
was seen, so a bug report can be precise. Exit 1 when something was found,
0 when every record type is known (a script can run it after an upgrade).
"""

from __future__ import annotations

import argparse
import json
import sys

from toolview.cli.record_census import Census, census
from toolview.cli.session_find import add_root_options, everywhere, roots
from toolview.cli.session_hosts import plugin_problems
from toolview.render.clean import clean_field
from toolview.safety.json_escape import escape_json

__all__ = ["register", "run"]

_PATH_CHARS = 300


def register(subparsers: object) -> None:
    """Add the ``doctor`` subcommand."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "doctor",
        help="report the record types in your sessions that no reader maps",
        description=(
            "Read every session of every agent toolview reads and report, per agent, the "
            "record types no reader maps (with counts and where each was first seen) and "
            "the reader plug-ins that could not be loaded. Exit 1 if any."
        ),
    )
    add_root_options(parser)
    parser.add_argument("--json", action="store_true", help="one JSON object per agent")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Census every reader's sessions; say what is unknown."""
    places = roots(args)
    sessions = everywhere(places)
    found = [
        census(reader, list(dict.fromkeys(s.path for s in sessions if s.host.name == reader.name)))
        for reader, _ in places
    ]
    problems = plugin_problems()
    for each in found:
        _say(_as_json(each) if args.json else _as_text(each))
    for problem in problems:
        _say(json.dumps({"plugin": problem}) if args.json else f"plug-in: {problem}")
    return 1 if problems or any(each.unmapped or each.more for each in found) else 0


def _as_text(found: Census) -> str:
    head = f"{found.reader.title} ({found.reader.name}): {found.sessions} sessions"
    if not found.checked:
        return f"{head}; its reader declares no record types: not checked"
    head += f", {found.records} records"
    if found.reader.verified:
        head += f", types checked against {found.reader.verified}"
    if found.unreadable:
        head += f", {found.unreadable} unreadable lines"
    if not found.unmapped:
        return f"{head}; every record type is known"
    lines = [f"{head}; {len(found.unmapped)} record types no reader maps:"]
    for name, seen in sorted(found.unmapped.items(), key=lambda item: -item[1].count):
        lines.append(f"  {name}  {seen.count}×  first at {clean_field(seen.first, _PATH_CHARS)}")
    if found.more:
        lines.append(f"  … and {found.more} records of further types")
    return "\n".join(lines)


def _as_json(found: Census) -> str:
    return escape_json(
        json.dumps(
            {
                "agent": found.reader.name,
                "sessions": found.sessions,
                "records": found.records,
                "unreadableLines": found.unreadable,
                "checked": found.checked,
                "checkedAgainst": found.reader.verified or None,
                "unmapped": {
                    name: {"count": seen.count, "first": clean_field(seen.first, _PATH_CHARS)}
                    for name, seen in found.unmapped.items()
                },
                "unmappedBeyondLimit": found.more,
            },
            ensure_ascii=False,
        )
    )


def _say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
