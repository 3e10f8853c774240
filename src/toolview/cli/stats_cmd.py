"""``toolview stats``: how the agents' sessions went, per day and week, by agent, project, model.

Why a command of its own: ``sessions`` says one session a line; what a user
asks of many is "what did this week cost, and how often did calls fail".
Each session is read as ``sessions`` reads it (``cli.session_summary``: the
counts and dollars of ``contract.counts``, the one home), and summed by
``render.stats``: no number here is counted by a rule of its own. ``--json``
gives the same tables for scripts.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from typing import Final

from toolview.cli.inputs import InputError
from toolview.cli.session_find import add_root_options, everywhere, roots
from toolview.cli.session_summary import summarize
from toolview.contract.tool_tally import ToolCount
from toolview.render.stats import Bucket, StatsSession, median_ms, tabulate, tool_failure_rate

__all__ = ["register", "run"]

_LABEL: Final = 24
_COLUMNS: Final = (
    f"{'SESSIONS':>8}  {'CALLS':>7}  {'FAILED':>6}  {'FAIL %':>6}  {'TOKENS':>12}  COST"
)

_TOOL_COLUMNS: Final = f"{'CALLS':>7}  {'FAILED':>6}  {'FAIL %':>6}  {'MEDIAN':>9}"


def register(subparsers: object) -> None:
    """Add the ``stats`` subcommand."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "stats",
        help="sum the coding-agent sessions per day, week, agent, project, model and tool",
        description=(
            "Sum the sessions (as toolview sessions reads them) per day and week (UTC), by "
            "agent, project and model: sessions, calls, failures, failure rate, tokens and "
            "cost (a model with no price is said, never counted as $0); by tool: calls, "
            "failures, failure rate and the median time from a call to its result."
        ),
    )
    add_root_options(parser)
    parser.add_argument("--json", action="store_true", help="the tables as one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Read every session found, then print the tables."""
    for given in (args.claude, args.codex):
        if given is not None and not given.is_dir():
            raise InputError(f"cannot read {given}: not a folder")
    stats = tabulate(_facts(args))
    tables = stats.tables()
    if args.json:
        doc = {name: {key: _as_json(b) for key, b in rows.items()} for name, rows in tables.items()}
        doc["tool"] = {row.tool: _tool_json(row) for row in stats.by_tool}
        sys.stdout.write(json.dumps(doc, ensure_ascii=True) + "\n")
        return 0
    for name, rows in tables.items():
        sys.stdout.write(f"{'BY ' + name.upper():<{_LABEL}}  {_COLUMNS}\n")
        for key, bucket in rows.items():
            sys.stdout.write(f"{key[:_LABEL]:<{_LABEL}}  {_row(bucket, name != 'model')}\n")
        sys.stdout.write("\n")
    sys.stdout.write(f"{'BY TOOL':<{_LABEL}}  {_TOOL_COLUMNS}\n")
    for row in stats.by_tool:
        sys.stdout.write(f"{row.tool[:_LABEL]:<{_LABEL}}  {_tool_row(row)}\n")
    return 0


def _facts(args: argparse.Namespace) -> Iterator[StatsSession]:
    """Each session's facts; one that cannot be read is said on stderr, the rest are summed."""
    for found in everywhere(roots(args)):
        try:
            summary = summarize(found)
        except Exception as exc:  # a host or a file failing is one line, never the stats
            print(f"toolview stats: {found.path}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        yield StatsSession(summary.start, summary.agent, summary.project, summary.counts)


def _row(bucket: Bucket, calls: bool) -> str:
    """One bucket's columns; a model's row says no calls (a call is not a model's: ``-``)."""
    rate = bucket.failure_rate
    percent = "-" if rate is None else f"{rate:.1%}"
    made = f"{bucket.calls:>7,}  {bucket.failed:>6,}" if calls else f"{'-':>7}  {'-':>6}"
    return (
        f"{bucket.sessions:>8,}  {made}  {percent:>6}  {bucket.tokens:>12,}  {bucket.cost_text()}"
    )


def _as_json(bucket: Bucket) -> dict[str, object]:
    return {
        "sessions": bucket.sessions,
        "calls": bucket.calls,
        "failed": bucket.failed,
        "failureRate": bucket.failure_rate,
        "tokens": bucket.tokens,
        "costUsd": float(bucket.usd),
        "unpricedSessions": bucket.unpriced,
        "costText": bucket.cost_text(),
    }


def _tool_row(row: ToolCount) -> str:
    """A tool's columns: calls, failed, failure rate, median duration (``-``: no times)."""
    rate, median = tool_failure_rate(row), median_ms(row)
    percent = "-" if rate is None else f"{rate:.1%}"
    took = "-" if median is None else f"{median / 1000:.2f} s"
    return f"{row.calls:>7,}  {row.failed:>6,}  {percent:>6}  {took:>9}"


def _tool_json(row: ToolCount) -> dict[str, object]:
    return {
        "calls": row.calls,
        "failed": row.failed,
        "failureRate": tool_failure_rate(row),
        "medianMs": median_ms(row),
        "timedCalls": len(row.took_ms),
    }
