"""The ``toolview`` command line: one small module per subcommand.

Each subcommand module exposes ``register(subparsers)``, which adds its parser
and sets ``handler`` to a function taking the parsed arguments and returning
the exit code. Why the table below imports each one inside a small function,
and only for the command the words name: a command pays for its own runtime
alone (``toolview --help`` imports none, ``check`` no surface, ``show`` no
server), and a command whose runtime is missing or broken says so — whether
its module or its handler imports it — without breaking the others. Every
other command is registered by its name and help line only; ``build_parser()``
without words registers them all in full.
"""

from __future__ import annotations

import argparse
import sys

from toolview.cli.inputs import InputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any, Final

    Register = Callable[[Any], None]
    Handler = Callable[[argparse.Namespace], int]

__all__ = ["COMMANDS", "CommandUnavailable", "build_parser", "main"]


def _schema() -> Register:
    from toolview.cli.schema_cmd import register

    return register


def _check() -> Register:
    from toolview.cli.check_cmd import register

    return register


def _run() -> Register:
    from toolview.cli.run_cmd import register

    return register


def _pi() -> Register:
    from toolview.cli.pi_cmd import register

    return register


def _mcp() -> Register:
    from toolview.cli.mcp_cmd import register

    return register


def _serve() -> Register:
    from toolview.cli.serve_cmd import register

    return register


def _show() -> Register:
    from toolview.cli.show_cmd import register

    return register


COMMANDS: Final[dict[str, tuple[str, Callable[[], Register]]]] = {
    # name → (help line, as the module's register gives it; its register, imported)
    "schema": ("print the JSON Schema of every wire shape", _schema),
    "check": ("check observation JSON Lines against the contract", _check),
    "run": ("run a command as a shell tool call and render it live", _run),
    "pi": ("run the pi coding agent (RPC mode) and show its tool calls live", _pi),
    "mcp": ("call a tool on a stdio MCP server", _mcp),
    "serve": ("serve threads: API, live follow, web page", _serve),
    "show": ("render a thread of tool calls on a surface", _show),
}


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
    parser = argparse.ArgumentParser(
        prog="toolview",
        description="Render AI-agent tool results on every surface, safely.",
    )
    parser.add_argument("--version", action=_Version)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    named = None if words is None else _command_word(words)
    for name, (help_line, load) in COMMANDS.items():
        if words is None or name == named:
            _load(name, load)(subparsers)
        else:
            subparsers.add_parser(name, help=help_line)
    return parser


def _command_word(words: Sequence[str]) -> str | None:
    """The subcommand ``words`` name: the first word that is no option (none takes a value)."""
    return next((word for word in words if not word.startswith("-")), None)


def _load(name: str, load: Callable[[], Register]) -> Register:
    try:
        return load()
    except ImportError as exc:
        raise CommandUnavailable(_unavailable(name, exc)) from None


def _unavailable(name: str, error: ImportError) -> str:
    return f"{name} cannot run in this installation: {error}"


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point: parse ``argv`` and run the chosen subcommand."""
    words = sys.argv[1:] if argv is None else list(argv)
    try:
        parser = build_parser(words)
    except CommandUnavailable as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    args = parser.parse_args(words)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return handler(args)
    except InputError as exc:
        print(f"toolview: {exc}", file=sys.stderr)
        return 2
    except ImportError as exc:  # a runtime imported on use: the MCP SDK, httpx for --to…
        print(f"toolview: {_unavailable(args.command, exc)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
