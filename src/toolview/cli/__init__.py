"""The ``toolview`` command line: one small module per subcommand.

Each subcommand module exposes ``register(subparsers)``, which adds its parser
and sets ``handler`` to a function taking the parsed arguments and returning
the exit code. Why each module is imported inside ``_register`` (a plain
import per command), and only for the command the words name: a command pays
for its own runtime alone (``toolview --help`` imports none, ``check`` no
surface, ``show`` no server), and a command whose runtime is missing or broken
says so — whether its module or its handler imports it — without breaking the
others. Every other command is registered by its name and help line only
(``COMMANDS``); ``build_parser()`` without words registers them all in full.
"""

from __future__ import annotations

import argparse
import sys

from toolview.cli.failures import (
    EXIT_INTERNAL,
    EXIT_INTERRUPTED,
    EXIT_USAGE,
    call,
    unavailable,
)
from toolview.cli.parsing import Parser

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, Final

    Register = Callable[[Any], None]
    Handler = Callable[[argparse.Namespace], int]

__all__ = ["COMMANDS", "EXIT_INTERNAL", "CommandUnavailable", "build_parser", "main"]

COMMANDS: Final[dict[str, str]] = {  # name → help line, as the command's own parser gives it
    "schema": "print the JSON Schema of every wire shape and built-in kind's props",
    "check": "check observation JSON Lines against the contract",
    "run": "run a command as a shell tool call and render it live",
    "pi": "run the pi coding agent (RPC mode) and show its tool calls live",
    "mcp": "call a tool on a stdio MCP server",
    "serve": "serve threads: API, live follow, web page",
    "show": "render a thread of tool calls on a surface",
    "sessions": (
        "list the sessions of every agent toolview reads here (Claude Code, Codex, Gemini CLI, "
        "Qwen Code, Copilot CLI, Cursor, OpenCode), newest first"
    ),
    "share": "write one session as a redacted, self-contained page or Markdown, with a review",
    "stats": "sum the coding-agent sessions per day, week, agent, project, model and tool",
    "doctor": "report the record types in your sessions that no reader maps",
    "hook": "an agent's permission hook: wait for a decision from the viewer",
    "approve": "list the calls waiting for a person, or allow / deny one",
    "hooks": "install the permission hook in Claude Code's or Codex's settings",
    "sync": "forward this machine's agent sessions, redacted, to a team server",
    "token": "make a named token (per machine or person) for serve --tokens",
}


def _register(name: str) -> Register:
    """The ``register`` of the command called ``name``, its module imported now."""
    match name:
        case "schema":
            from toolview.cli.schema_cmd import register
        case "check":
            from toolview.cli.check_cmd import register
        case "run":
            from toolview.cli.run_cmd import register
        case "pi":
            from toolview.cli.pi_cmd import register
        case "mcp":
            from toolview.cli.mcp_cmd import register
        case "serve":
            from toolview.cli.serve_cmd import register
        case "show":
            from toolview.cli.show_cmd import register
        case "sessions":
            from toolview.cli.sessions_cmd import register
        case "share":
            from toolview.cli.share_cmd import register
        case "stats":
            from toolview.cli.stats_cmd import register
        case "doctor":
            from toolview.cli.doctor_cmd import register
        case "hook":
            from toolview.cli.hook_cmd import register
        case "approve":
            from toolview.cli.approve_cmd import register
        case "hooks":
            from toolview.cli.hooks_cmd import register
        case "sync":
            from toolview.cli.sync_cmd import register
        case "token":
            from toolview.cli.token_cmd import register
        case _:
            raise KeyError(name)
    return register


class CommandUnavailable(RuntimeError):
    """A subcommand whose runtime this installation cannot import."""


class _Version(argparse.Action):
    """``--version``: the installed distribution's version (read only when asked)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **_: object) -> None:
        super().__init__(
            option_strings,
            dest=argparse.SUPPRESS,  # like argparse's own "version": nothing in the namespace
            default=argparse.SUPPRESS,
            nargs=0,
            help="print toolview's version and exit",
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("toolview")
        except PackageNotFoundError:  # run from a source tree that was never installed
            number = "(not installed)"
        sys.stdout.write(f"toolview {number}\n")
        parser.exit()


def build_parser(words: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; in full for the command ``words`` name (all of them without words).

    Raises ``CommandUnavailable`` when a command to register in full cannot
    be imported.
    """
    parser = Parser(
        prog="toolview",
        description="Render AI-agent tool results on every surface, safely.",
    )
    parser.add_argument("--version", action=_Version)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = None if words is None else _command_word(words)
    for name, help_line in COMMANDS.items():
        if words is None or name == named:
            _load(name)(subparsers)
        else:
            subparsers.add_parser(name, help=help_line)
    return parser


def _command_word(words: Sequence[str]) -> str | None:
    """The subcommand ``words`` name: the first word that is no option (none takes a value)."""
    return next((word for word in words if not word.startswith("-")), None)


def _load(name: str) -> Register:
    try:
        return _register(name)
    except ImportError as exc:
        raise CommandUnavailable(unavailable(name, exc)) from None


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse ``argv`` and run the chosen subcommand (README, "Exit codes")."""
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        try:
            parser = build_parser(words)
        except CommandUnavailable as exc:
            print(f"toolview: {exc}", file=sys.stderr)
            return EXIT_USAGE
        args = parser.parse_args(words)
        handler: Handler | None = getattr(args, "handler", None)
        if handler is None:
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        return call(handler, args)
    except KeyboardInterrupt:  # Ctrl-C while a command's modules were still importing
        return EXIT_INTERRUPTED
