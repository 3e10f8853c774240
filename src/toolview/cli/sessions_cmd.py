"""``toolview sessions``: the coding agents' sessions on this machine, newest first.

Why: to look at a session you first need to find it, and an agent's folder
of UUID-named files says nothing. One line per session — its id (the shortest
form no other listed session shares, which ``toolview show ID`` takes:
``cli.session_ids``), agent, start (UTC), duration, calls, failures,
cost (``contract.cost``), size, project and first prompt — printed as each
is read, so a long list starts at once; ``--json`` gives the same as JSON
Lines for scripts. The first prompt is cleaned, redacted and cut to one line
like every field toolview shows. A session the host cannot read is said on
stderr and the rest are listed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime
from decimal import Decimal
from typing import Final

from toolview.cli.inputs import InputError
from toolview.cli.session_filters import add_filter_options, wanted
from toolview.cli.session_find import Found, add_root_options, everywhere, roots
from toolview.cli.session_ids import short_ids
from toolview.cli.session_summary import Summary, summarize
from toolview.cli.summary_cache import SummaryCache, cache_path
from toolview.contract.cost import money_text
from toolview.contract.counts import cost_fields, counts_text
from toolview.contract.session_facts import agent_name
from toolview.safety.json_escape import escape_json

__all__ = ["register", "run"]

HEADER: Final = (
    f"{'AGENT':<6}  {'START (UTC)':<16}  {'DURATION':>8}  {'CALLS':>5}  "
    f"{'FAILED':>6}  {'COST':>8}  {'SIZE':>8}  {'STATUS':<8}  {'PROJECT':<16}  TITLE"
)


def register(subparsers: object) -> None:
    """Add the ``sessions`` subcommand."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "sessions",
        help=(
            "list the sessions of every agent toolview reads here (Claude Code, Codex, Gemini "
            "CLI, Qwen Code, Copilot CLI, Cursor, OpenCode), newest first"
        ),
        description=(
            "List the Claude Code, Codex, Gemini CLI, Qwen Code, Copilot CLI, Cursor and OpenCode "
            "sessions, newest first, one "
            "line each: id, agent, start (UTC), duration, calls, failures, cost, size, project "
            "and first prompt (cleaned, redacted, cut). Show one with: toolview show ID (the id "
            "as listed will do)."
        ),
    )
    add_root_options(parser)
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per session (JSON Lines), for scripts"
    )
    add_filter_options(parser)
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="read every session again (the cache of summaries is neither read nor written)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """List every session found, each as soon as it is read."""
    for given in (
        args.claude,
        args.codex,
        args.gemini,
        args.qwen,
        args.opencode,
        args.copilot,
        args.cursor,
    ):
        if given is not None and not given.is_dir():
            raise InputError(f"cannot read {given}: not a folder")
    places = roots(args)
    found = everywhere(places)
    if not found:
        where = ", ".join(str(root) for _, root in places) or "no session host installed"
        print(f"toolview sessions: no sessions under {where}", file=sys.stderr)
        return 0
    shown = short_ids([session.id for session in found])
    width = max(len(short) for short in shown.values())
    if not args.json:
        _line(f"{'ID':<{width}}  {HEADER}")
    cache = SummaryCache(cache_path()) if not args.no_cache else None
    now = time.time()
    for session in found:
        summary = _summary(session, cache)
        if summary is None or not wanted(summary, args):
            continue
        _line(
            _as_json(summary, now)
            if args.json
            else f"{shown[summary.id]:<{width}}  {_as_row(summary, now)}"
        )
    if cache is not None:
        cache.save()
    return 0


def _summary(session: Found, cache: SummaryCache | None) -> Summary | None:
    cached = cache.get(session) if cache is not None else None
    if cached is not None:
        return cached
    try:
        summary = summarize(session)
    except Exception as exc:  # a host or a file failing is one line, never the listing
        print(f"toolview sessions: {session.path}: {type(exc).__name__}: {exc}", file=sys.stderr)
        return None
    if cache is not None:
        cache.put(session, summary)
    return summary


def _as_row(summary: Summary, now: float) -> str:
    """The row after its id (the id's width is the listing's: ``cli.session_ids``)."""
    return (
        f"{agent_name(summary.agent):<6}  "
        f"{_start(summary.start):<16}  {_duration(summary.duration_s):>8}  "
        f"{_with_sub(summary.calls, summary.counts.sub_calls, summary):>5}  "
        f"{_with_sub(summary.failures, summary.counts.sub_failed, summary):>6}  "
        f"{_cost(summary):>8}  {_size(summary.size):>8}  {_short_status(summary.status(now)):<8}  "
        f"{summary.project[:16]:<16}  {summary.prompt or '-'}"
    )


def _short_status(status: str) -> str:
    return "waiting" if status == "waiting for input" else status


def _as_json(summary: Summary, now: float) -> str:
    """One session as a JSON line, C1 and bidi characters escaped (``safety.json_escape``)."""
    return escape_json(
        json.dumps(
            {
                "agent": summary.agent,
                "id": summary.id,
                "path": summary.path,
                "project": summary.project,
                "title": summary.prompt,
                "firstPrompt": summary.prompt,
                "status": summary.status(now),
                "start": summary.start,
                "end": summary.end,
                "durationS": summary.duration_s,
                "calls": summary.calls,
                "failures": summary.failures,
                "subAgentCalls": summary.counts.sub_calls,
                "subAgentFailures": summary.counts.sub_failed,
                "counts": counts_text(summary.counts),
                **cost_fields(summary.counts),
                "sizeBytes": summary.size,
                "unreadableLines": summary.notes,
            },
            ensure_ascii=False,
        )
    )


def _with_sub(own: int, sub: int, summary: Summary) -> str:
    """``11+156``: the session's own count, then its sub-agents' when they made calls
    (the columns of ``contract.counts.counts_text``: ``11 calls (+156 in sub-agents)``)."""
    return f"{own}+{sub}" if summary.counts.sub_calls else str(own)


def _cost(summary: Summary) -> str:
    """The session's dollars, its sub-agents' included (``no price`` for a model with none):
    the column is narrow, ``--json`` and ``show`` say the two apart."""
    counts = summary.counts
    if not counts.models and not counts.sub_models:
        return "-"
    own, sub = counts.cost_usd, counts.sub_cost_usd
    if counts.sub_models and (own is None or sub is None):
        return money_text(None)
    return money_text((own or Decimal(0)) + (sub or Decimal(0)))


def _start(at: str | None) -> str:
    if at is None:
        return "-"
    return datetime.fromisoformat(at.replace("Z", "+00:00")).strftime("%Y-%m-%d %H:%M")


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    whole = int(seconds)
    if whole < 60:
        return f"{whole}s"
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


def _size(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / (1024 * 1024):.1f} MB"


def _line(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()
