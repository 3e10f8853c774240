"""``toolview mcp``: call a tool on a stdio MCP server, or list its tools.

``toolview mcp call TOOL [--args JSON] [--guard FILE] -- SERVER COMMAND…``
renders the result (exit 1 when it is an error; Ctrl-C ends the call with its
output so far, ``interrupted by SIGINT``, exit 130); with ``--guard`` the call is
checked first and a refused one is drawn as a receipt and never sent (exit
126; the server is not even started). ``toolview mcp tools -- SERVER COMMAND…``
lists the tools. ``--json`` prints observations as JSON Lines instead. Everything a
server sends is untrusted: names and descriptions are cleaned before printing.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import uuid
from collections.abc import Sequence
from typing import Any

import anyio
from rich.console import Console

from toolview.cli.guarding import (
    EXIT_REFUSED,
    GuardFileError,
    add_guard_option,
    broken_guard,
    check_call,
    load_guards,
)
from toolview.cli.output import render
from toolview.cli.parsing import Parser
from toolview.contract import (
    Descriptor,
    Observation,
    TableProps,
    ToolCall,
    ToolResult,
    encode_observation,
    is_partial,
)
from toolview.contract.interrupted import interrupted_calls
from toolview.contract.thread import Thread
from toolview.hosts.mcp import McpClientError, call_tool, list_tools
from toolview.hosts.mcp.client import DEFAULT_TIMEOUT
from toolview.render.terminal.live import print_thread
from toolview.safety import clean_text
from toolview.safety.json_escape import escape_json

__all__ = ["register", "run"]

EXIT_USAGE = 2
EXIT_SERVER = 3
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell says it


def register(subparsers: Any) -> None:
    """Add ``mcp call`` and ``mcp tools``."""
    parser = subparsers.add_parser("mcp", help="call a tool on a stdio MCP server")
    commands = parser.add_subparsers(
        dest="mcp_command", metavar="{call,tools}", parser_class=_ServerCommandParser
    )
    call = commands.add_parser("call", help="call TOOL and render its result")
    call.add_argument("tool", help="the tool's name")
    call.add_argument("--args", default="{}", metavar="JSON", help="arguments, a JSON object")
    add_guard_option(call)
    tools = commands.add_parser("tools", help="list the server's tools")
    for sub in (call, tools):
        sub.add_argument("--json", action="store_true", help="print observations as JSON Lines")
        sub.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="SECONDS")
    parser.set_defaults(handler=run)


class _ServerCommandParser(Parser):
    """Everything after the first ``--`` is the server command, options and all.

    argparse alone cannot tell ``TOOL --args X -- SERVER --flag`` apart: once a
    positional is filled it rejects later ones, so the split is done here.
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        words = list(sys.argv[1:] if args is None else args)
        cut = words.index("--") if "--" in words else len(words)
        parsed, extras = super().parse_known_args(words[:cut], namespace)
        parsed.server = words[cut + 1 :]
        return parsed, extras


def run(args: argparse.Namespace) -> int:
    """Dispatch to ``call`` or ``tools``; exit 2 on bad usage, 3 if the server fails."""
    server: list[str] = getattr(args, "server", [])
    if not args.mcp_command or not server:
        print(
            "toolview mcp: usage: toolview mcp {call TOOL,tools} [...] -- SERVER COMMAND…",
            file=sys.stderr,
        )
        return EXIT_USAGE
    try:
        if args.mcp_command == "call":
            return _call(args, server)
        return _tools(args, server)
    except McpClientError as exc:
        print(f"toolview mcp: {exc}", file=sys.stderr)
        return EXIT_SERVER


def _call(args: argparse.Namespace, server: list[str]) -> int:
    arguments = _arguments(args.args)
    if arguments is None:
        print('toolview mcp: --args must be a JSON object, e.g. \'{"path": "."}\'', file=sys.stderr)
        return EXIT_USAGE
    try:
        guard = load_guards(args.guard)
    except GuardFileError as exc:
        return broken_guard("toolview mcp", exc)
    call = ToolCall(
        tool_call_id=f"mcp-{uuid.uuid4().hex[:12]}", tool_name=args.tool, args=arguments
    )
    refusal = check_call(guard, call)
    if refusal is not None:
        return _refused([call, refusal], as_json=args.json)
    sink = _print_json if args.json else _show_progress
    seen: list[Observation] = []

    def observe(observation: Observation) -> None:
        seen.append(observation)
        sink(observation)

    try:
        observations = anyio.run(
            lambda: call_tool(
                server,
                args.tool,
                arguments,
                tool_call_id=call.tool_call_id,
                on_observation=observe,
                timeout=args.timeout,
            )
        )
    except KeyboardInterrupt:  # Ctrl-C: the call in flight ends with what it had
        return _interrupted(seen, call, as_json=args.json)
    if not args.json:
        _render(observations)
    final = observations[-1]
    return 1 if isinstance(final, ToolResult) and final.is_error else 0


def _interrupted(seen: list[Observation], call: ToolCall, *, as_json: bool) -> int:
    """The call's final result, its output so far ``interrupted by SIGINT``; exit 130."""
    thread = Thread.from_observations(seen if seen else [call])
    finals = interrupted_calls(thread, signal.SIGINT)
    for final in finals:
        if as_json:
            _print_json(final)
        thread.add(final)
    if not as_json:
        sys.stdout.write(render(thread, "terminal", width=None, color=None))
    return EXIT_INTERRUPTED


def _refused(observations: list[Observation], *, as_json: bool) -> int:
    """The receipt of a refused call (or its observations as JSON Lines); nothing was sent."""
    if as_json:
        for observation in observations:
            _print_json(observation)
    else:
        print_thread(Console(highlight=False), observations)
    return EXIT_REFUSED


def _tools(args: argparse.Namespace, server: list[str]) -> int:
    tools = anyio.run(lambda: list_tools(server, timeout=args.timeout))
    rows = [[_clean(tool.get("name")), _clean(tool.get("description"))] for tool in tools]
    if args.json:
        for observation in _tools_observations(rows):
            _print_json(observation)
        return 0
    for name, description in rows:
        summary = description.splitlines()[0] if description else ""
        sys.stdout.write(f"{name}  {summary}\n" if summary else f"{name}\n")
    return 0


def _tools_observations(rows: list[list[str]]) -> list[Observation]:
    text = "\n".join(f"{name}: {description}" for name, description in rows)
    props = TableProps(columns=["name", "description"], rows=rows)
    descriptor = Descriptor(kind="table", props=props)
    return [
        ToolCall(tool_call_id="tools-list", tool_name="tools/list", args={}),
        ToolResult(
            tool_call_id="tools-list",
            tool_name="tools/list",
            text=text,
            complete=True,
            is_error=False,
            descriptor=descriptor,
        ),
    ]


def _render(observations: Sequence[Observation]) -> None:
    """The terminal surface, as ``toolview show`` uses it (colour only on a terminal)."""
    thread = Thread.from_observations(observations)
    sys.stdout.write(render(thread, "terminal", width=None, color=None))


def _show_progress(observation: Observation) -> None:
    """Live progress on stderr: the latest line of each partial result."""
    if is_partial(observation) and observation.text:
        print(clean_text(observation.text.rsplit("\n", 1)[-1]), file=sys.stderr, flush=True)


def _print_json(observation: Observation) -> None:
    sys.stdout.write(escape_json(encode_observation(observation).decode("utf-8")) + "\n")
    sys.stdout.flush()


def _arguments(text: str) -> dict[str, Any] | None:
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _clean(value: object) -> str:
    return clean_text(value) if isinstance(value, str) else ""
