"""``toolview approve``: what waits for a person across a server's threads, answered from here.

``toolview approve`` lists every waiting call (``GET /api/waiting``): its
thread, its id, the tool, the agent's question and the arguments — as the
server redacted them, then cleaned again for this terminal (a tool's
arguments are untrusted text: no escape sequence, control or bidi character
reaches the screen, secrets are masked). ``toolview approve THREAD CALL
--allow|--deny [--message M]`` posts the decision with an ``Idempotency-Key``
(a retry is answered with the same receipt) and prints the receipt; a call
that no longer waits is the server's 409, said and exit 1. The URL comes from
``--server`` or ``$TOOLVIEW_URL``, the token from ``--token`` or
``$TOOLVIEW_TOKEN`` (sent as ``remote.token`` allows).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import uuid
from typing import Any, Final
from urllib.parse import quote

from toolview.cli.failures import EXIT_USAGE

__all__ = ["ARGS_SHOWN", "register", "run"]

ARGS_SHOWN: Final = 400  # characters of a call's arguments on its line: enough to judge it


def register(subparsers: object) -> None:
    """Add ``approve``."""
    parser = subparsers.add_parser(  # type: ignore[attr-defined]
        "approve",
        help="list the calls waiting for a person, or allow / deny one",
        description="Without THREAD CALL: list what waits on the server. With them and --allow "
        "or --deny: answer that call (see docs/approvals.md).",
    )
    parser.add_argument("thread", nargs="?", help="the waiting call's thread")
    parser.add_argument("call", nargs="?", help="the waiting call's id")
    choice = parser.add_mutually_exclusive_group()
    choice.add_argument("--allow", action="store_true", help="let the call run")
    choice.add_argument("--deny", action="store_true", help="refuse the call")
    parser.add_argument("--message", metavar="M", help="a message for the agent (with --deny)")
    parser.add_argument("--server", metavar="URL", help="the server (default $TOOLVIEW_URL)")
    parser.add_argument(
        "--token", help="the server's token (other users see it in ps: prefer $TOOLVIEW_TOKEN)"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """List, or decide; exit 1 when the server refuses or cannot be reached."""
    base = (args.server or os.environ.get("TOOLVIEW_URL") or "").rstrip("/")
    deciding = args.allow or args.deny
    if not base.startswith(("http://", "https://")):
        return _usage("want --server http(s)://HOST:PORT (or $TOOLVIEW_URL)")
    if deciding != (args.call is not None):
        return _usage("answer with THREAD CALL and --allow or --deny; list with neither")
    import httpx

    from toolview.remote.token import auth_headers

    headers = auth_headers(base, args.token, notify=_say)
    try:
        with httpx.Client(base_url=base, headers=headers, timeout=30.0) as client:
            return _decide(client, args) if deciding else _list(client)
    except httpx.HTTPError as exc:
        _say(f"no answer from {base} ({exc})")
        return 1


def _list(client: Any) -> int:
    answer = client.get("/api/waiting")
    if answer.status_code != 200:
        return _refused(answer)
    body = answer.json()
    for ask in body["waiting"]:
        print(_line(ask))
    if not body["waiting"]:
        print("nothing waits for a decision")
    if body["threadsRead"] < body["threads"]:
        print(f"(read the newest {body['threadsRead']} of {body['threads']} threads)")
    return 0


def _line(ask: dict[str, Any]) -> str:
    """One waiting call: where, what, why, and its arguments, clipped and cleaned."""
    from toolview.safety.terminal import clean_text

    args = json.dumps(ask.get("args"), ensure_ascii=False)
    args = args if len(args) <= ARGS_SHOWN else f"{args[:ARGS_SHOWN]}…"
    head = f"{ask.get('thread')} {ask.get('toolCallId')}  {ask.get('toolName')}"
    question = ask.get("question") or ""
    return clean_text(f"{head}  {question}\n    args: {args}")


def _decide(client: Any, args: argparse.Namespace) -> int:
    from toolview.safety.terminal import clean_text

    body: dict[str, str] = {"decision": "allow" if args.allow else "deny"}
    if args.message:
        body["message"] = args.message
    path = f"/api/threads/{quote(args.thread, safe='')}/calls/{quote(args.call, safe='')}/decision"
    answer = client.post(path, json=body, headers={"Idempotency-Key": uuid.uuid4().hex})
    if answer.status_code not in (200, 201):
        return _refused(answer)
    receipt = answer.json()["decision"]
    done = "allowed" if receipt["decision"] == "allow" else "denied"
    print(clean_text(f"{done} {args.call} in {args.thread} (by {receipt.get('by')})"))
    return 0


def _refused(answer: Any) -> int:
    """The server's refusal, said (cleaned: its text may quote a hostile id); exit 1."""
    from toolview.safety.terminal import clean_text

    try:
        why = str(answer.json()["error"])
    except (ValueError, KeyError, TypeError):
        why = answer.text[:200]
    _say(clean_text(f"the server refused ({answer.status_code}): {why}"))
    return 1


def _usage(message: str) -> int:
    _say(message)
    return EXIT_USAGE


def _say(message: str) -> None:
    print(f"toolview approve: {message}", file=sys.stderr)
