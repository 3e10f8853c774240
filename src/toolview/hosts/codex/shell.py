"""Codex's shell calls as ``shell`` results: command, exit code, output, duration.

Codex has had several shell tools (``shell``/``container.exec`` with an argv,
``shell_command`` and ``exec_command`` with a string, ``local_shell_call``
items) and several places for the outcome: an end record (``exec_command_end``
events before 0.170, an ``item_completed`` ``CommandExecution`` item since)
and the text the model got back (``function_call_output``: JSON in old
versions, a header then ``Output:`` in new ones). The end record is the
better source (the whole persisted output, the exit code, the duration); the
output text fills in what it lacks and is enough alone.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final

from toolview.hosts.codex.fields import as_map, json_object

__all__ = [
    "PERSISTENCE_MARKER",
    "SHELL_TOOLS",
    "ShellOutcome",
    "command_text",
    "from_end",
    "from_output",
]

SHELL_TOOLS: Final = frozenset(
    {"shell", "container.exec", "shell_command", "exec_command", "local_shell"}
)
PERSISTENCE_MARKER: Final = "... command output truncated for persistence ..."
_SHELLS: Final = frozenset({"bash", "sh", "zsh", "dash", "fish"})
_HEADER: Final = re.compile(
    r"^(?:Chunk ID|Wall time|Process exited with code|Process running with session ID"
    r"|Original token count|Exit code)\b.*$"
)
_WALL: Final = re.compile(r"^Wall time: ([0-9]{1,9}(?:\.[0-9]{1,9})?) seconds?$", re.M)
_EXIT: Final = re.compile(r"^(?:Process exited with code|Exit code:) (-?\d{1,10})$", re.M)
_RUNNING: Final = re.compile(r"^Process running with session ID (\d{1,20})$", re.M)
_ABORTED: Final = re.compile(r"\Aaborted by user\b")
_TOTAL: Final = re.compile(r"^Total output lines: (\d{1,12})$", re.M)
_WARNING: Final = re.compile(
    r"\A(?:Warning: truncated output[^\n]*\n)?Total output lines: \d+\n\n?"
)


@dataclass(frozen=True)
class ShellOutcome:
    """What is known of one command's run; ``None`` where the record did not say."""

    output: str
    stdout: str
    stderr: str
    exit_code: int | None = None
    duration_ms: int | None = None
    total_lines: int | None = None
    session_id: str | None = None
    interrupted: bool = False  # Codex said "aborted by user" (the turn was interrupted)

    def merged(self, other: ShellOutcome) -> ShellOutcome:
        """This outcome with the gaps filled from ``other`` (the output text's header,
        and its body when the end record kept no output)."""
        texts = other if not self.output and other.output else self
        return replace(
            self,
            output=texts.output,
            stdout=texts.stdout,
            stderr=texts.stderr,
            exit_code=self.exit_code if self.exit_code is not None else other.exit_code,
            duration_ms=self.duration_ms if self.duration_ms is not None else other.duration_ms,
            total_lines=self.total_lines or other.total_lines,
            session_id=self.session_id or other.session_id,
            interrupted=self.interrupted or other.interrupted,
        )


def command_text(args: Mapping[str, object]) -> str:
    """The command line a call ran: a string as is, an argv as a shell would read it."""
    for key in ("cmd", "command"):
        value = args.get(key)
        if isinstance(value, str):
            return value
        if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
            return _argv_text(value)
    return ""


def _argv_text(argv: list[str]) -> str:
    """``["bash", "-lc", "ls -l"]`` is the command ``ls -l``; any other argv is quoted."""
    if len(argv) == 3 and argv[1] in ("-c", "-lc") and argv[0].rsplit("/", 1)[-1] in _SHELLS:
        return argv[2]
    return shlex.join(argv)


def from_end(payload: Mapping[str, object]) -> ShellOutcome:
    """The outcome an end record tells: ``CommandExecution`` or ``exec_command_end``."""
    stdout, stderr = payload.get("stdout"), payload.get("stderr")
    aggregated = payload.get("aggregated_output")
    if not isinstance(aggregated, str):
        aggregated = payload.get("formatted_output")
    split = isinstance(stdout, str) and isinstance(stderr, str)
    if not isinstance(aggregated, str):
        aggregated = f"{stdout}{stderr}" if split else ""
    exit_code = payload.get("exit_code")
    return ShellOutcome(
        output=aggregated,
        stdout=stdout if split and isinstance(stdout, str) else aggregated,
        stderr=stderr if split and isinstance(stderr, str) else "",
        exit_code=exit_code if type(exit_code) is int else None,
        duration_ms=_duration_ms(payload.get("duration"), payload.get("duration_ms")),
    )


def _duration_ms(value: object, millis: object = None) -> int | None:
    """A Rust ``Duration`` (``{"secs", "nanos"}``) in whole milliseconds, or the
    ``duration_ms`` some versions wrote instead."""
    if type(millis) is int and millis >= 0:
        return millis
    duration = as_map(value)
    secs, nanos = duration.get("secs"), duration.get("nanos", 0)
    if type(secs) is not int or type(nanos) is not int or secs < 0 or nanos < 0:
        return None
    return secs * 1000 + nanos // 1_000_000


def from_output(text: str) -> ShellOutcome:
    """The outcome the model was told: old JSON ``{output, metadata}`` or a header text."""
    legacy = json_object(text) if text.startswith("{") else None
    if legacy is not None and isinstance(legacy.get("output"), str):
        return _from_legacy(legacy)
    head, body = _split_header(text)
    if head is None:
        return ShellOutcome(output=text, stdout=text, stderr="")
    total = _TOTAL.search(body[:200])
    body = _WARNING.sub("", body, count=1)
    wall, exit_code, running = _WALL.search(head), _EXIT.search(head), _RUNNING.search(head)
    return ShellOutcome(
        output=body,
        stdout=body,
        stderr="",
        exit_code=int(exit_code.group(1)) if exit_code else None,
        duration_ms=round(float(wall.group(1)) * 1000) if wall else None,
        total_lines=int(total.group(1)) if total else None,
        session_id=running.group(1) if running else None,
        interrupted=_ABORTED.match(body) is not None,
    )


def _split_header(text: str) -> tuple[str | None, str]:
    """Codex's header lines (``Wall time``, ``Process exited with code``…) and the body
    after them (and after ``Output:``); no header: ``(None, text)``."""
    head, sep, body = text.partition("Output:\n")
    if sep and all(_HEADER.match(line) for line in head.splitlines()):
        return head, body
    lines = text.split("\n")
    count = next((n for n, line in enumerate(lines) if not _HEADER.match(line)), len(lines))
    if count == 0:
        return None, text
    return "\n".join(lines[:count]), "\n".join(lines[count:])


def _from_legacy(value: Mapping[str, object]) -> ShellOutcome:
    output = str(value["output"])
    metadata = as_map(value.get("metadata"))
    exit_code, seconds = metadata.get("exit_code"), metadata.get("duration_seconds")
    duration = seconds if isinstance(seconds, int | float) and seconds >= 0 else None
    total = _TOTAL.search(output[:200])
    return ShellOutcome(
        output=output,
        stdout=output,
        stderr="",
        exit_code=exit_code if type(exit_code) is int else None,
        duration_ms=None if duration is None else round(duration * 1000),
        total_lines=int(total.group(1)) if total else None,
    )
