"""How a command's failure reaches the user: one line on stderr and an exit code, never a traceback.

Why one place: every command can meet an unreadable file, a missing runtime, a
closed pipe or Ctrl-C, and a user must get the same answer from each — the
codes are README's "Exit codes" table. A bug (any other exception) is one
line naming it, exit 70 (``EX_SOFTWARE``); ``TOOLVIEW_TRACEBACK=1`` lets the
traceback through for whoever debugs it. The exception's text is cleaned of
terminal controls first: it may quote what a tool or a server sent.
Imported by the entry point, so it imports nothing start-up would pay for.
"""

from __future__ import annotations

import os
import sys

from toolview.cli.inputs import InputError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up)
if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable
    from typing import Final

__all__ = ["EXIT_INTERNAL", "EXIT_INTERRUPTED", "EXIT_USAGE", "call", "unavailable"]

EXIT_USAGE: Final = 2
EXIT_INTERNAL: Final = 70  # EX_SOFTWARE (sysexits.h): toolview itself failed
EXIT_INTERRUPTED: Final = 130
_ASK: Final = "a bug: set TOOLVIEW_TRACEBACK=1 to see where, and please report it"


def unavailable(name: str, error: ImportError) -> str:
    """Why the command ``name`` cannot run: a runtime it needs does not import."""
    return f"{name} cannot run in this installation: {error}"


def call(handler: Callable[[argparse.Namespace], int], args: argparse.Namespace) -> int:
    """``handler(args)``'s exit code; any failure said in one line, with its code."""
    try:
        return handler(args)
    except InputError as exc:
        return _say(str(exc), EXIT_USAGE)
    except ImportError as exc:  # a runtime imported on use: the MCP SDK, httpx for --to…
        return _say(unavailable(args.command, exc), EXIT_USAGE)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except OSError as exc:  # a file or folder the command could not use: not a bug
        where = f"{exc.filename}: " if exc.filename else ""
        return _say(f"{where}{exc.strerror or _one_line(exc)}", EXIT_USAGE)
    except Exception as exc:
        if os.environ.get("TOOLVIEW_TRACEBACK"):
            raise
        return _say(f"internal error: {_one_line(exc)} ({_ASK})", EXIT_INTERNAL)


def _say(message: str, code: int) -> int:
    """One cleaned line: a file name or a server's words may carry terminal controls."""
    from toolview.safety import clean_text  # on this path only: start-up stays light

    print(f"toolview: {clean_text(message)}", file=sys.stderr)
    return code


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())[:300]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__
