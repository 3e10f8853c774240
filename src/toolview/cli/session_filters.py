"""``sessions``' filters: ``--project``, ``--agent``, ``--since``, read from the summaries.

Why a helper of its own: what a filter compares is what the listing shows —
the project and the agent as ``contract.session_facts`` names them, the start
as the host mapped it — so a row and the filter that keeps it never disagree.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime

from toolview.cli.session_summary import Summary
from toolview.contract.session_facts import agent_name

__all__ = ["add_filter_options", "wanted"]


def add_filter_options(parser: argparse.ArgumentParser) -> None:
    """``--project NAME``, ``--agent AGENT``, ``--since DATE``."""
    parser.add_argument("--project", metavar="NAME", help="only sessions of this project")
    parser.add_argument(
        "--agent", metavar="AGENT", help="only this agent's sessions (claude, codex, ...)"
    )
    parser.add_argument(
        "--since",
        metavar="DATE",
        type=_since,
        help="only sessions started on or after DATE (YYYY-MM-DD or an ISO time, UTC)",
    )


def _since(text: str) -> str:
    """``--since``'s date as a UTC ISO time, to compare with a session's start."""
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def wanted(summary: Summary, args: argparse.Namespace) -> bool:
    """Whether ``summary`` passes ``--project``, ``--agent`` and ``--since``."""
    agent = agent_name(summary.agent)
    if args.agent is not None and args.agent not in (agent, summary.agent):
        return False
    if args.project is not None and args.project != summary.project:
        return False
    return args.since is None or (summary.start is not None and _utc(summary.start) >= args.since)


def _utc(at: str) -> str:
    """A session's start as ``_since`` spells it ("" for a time that does not exist)."""
    try:
        return _since(at)
    except argparse.ArgumentTypeError:
        return ""
