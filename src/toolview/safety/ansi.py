"""Command output as a terminal would leave it: styled runs, the final frame, nothing obeyed.

One left-to-right pass, a small state machine driven by ``re.search`` for the
next control (a character class: it cannot backtrack) and fixed-shape matches
at that spot, so the cost is linear in the input. What it does with each
sequence (see docs/safety.md):

* SGR (``ESC[…m``) is read into a ``Style`` (``safety.sgr``): kept as data,
  never passed on;
* ``\\r`` not followed by ``\\n`` returns to the line's start and later
  characters overwrite; ``\\b`` moves back one; ``ESC[K`` (erase to the
  line's end) cuts the line at the cursor -- so a progress bar shows its last
  frame, as on the terminal it was written for;
* everything else is neutralized exactly as ``safety.terminal`` does it (the
  same visible forms): other CSI, OSC, DCS, SOS, PM, APC and two-byte escapes
  are removed, an unterminated string sequence loses only its introducer
  (``␛]``), C0/DEL become control pictures, C1 and invisible/bidi characters
  ``<U+XXXX>`` -- and so do U+2028/U+2029, which break a line for some viewers.

``overwrite=False`` keeps ``\\r`` and ``\\b`` as characters (and ``ESC[K`` as
``ERASE_MARK``) for a reader that applies them itself (the live page's
script); ``parse_growing`` stops before an escape sequence the text ends
inside, so the output of a growing text only ever grows (``safety.output``).
Text with none of these characters (``safety.inert``: most output) is
returned as it is, without the scan; text whose only controls are newlines
and SGR codes is read by ``safety.ansi_fast`` in one ``finditer``.
"""

from __future__ import annotations

import re
from itertools import groupby
from typing import Final

from toolview.safety.ansi_fast import colours_only
from toolview.safety.inert import inert
from toolview.safety.invisible import INVISIBLE_CLASS, show_control
from toolview.safety.sequences import (
    STRING_BODY,
    STRING_C1,
    STRING_END,
    STRING_MAX,
    STRING_OPENERS,
)
from toolview.safety.sgr import PLAIN, Run, Style, Styled, apply_sgr

__all__ = ["ERASE_MARK", "MAX_SGR_PARAMS", "parse_growing", "parse_output"]

ERASE_MARK: Final = "\x1aK"
"""``ESC[K`` when ``\\r``/``\\b`` are kept: SUB cannot come from a tool (it is shown ``␚``)."""
MAX_SGR_PARAMS: Final = 256  # a longer SGR is dropped unread, like any other CSI

_CONTROL: Final = re.compile(f"[\x00-\x08\x0a-\x1f\x7f-\x9f{INVISIBLE_CLASS}\u2028\u2029]")
_CSI: Final = re.compile(r"([0-?]*+)([ -/]*+)([@-~]?)")
_BODY: Final = re.compile(STRING_BODY)
_END: Final = re.compile(STRING_END)
_ESCAPE: Final = re.compile(r"[ -/]*+[0-~]")
_STRING_OPENERS: Final = frozenset(STRING_OPENERS)
_STRING_C1: Final = frozenset(STRING_C1)
_INTERMEDIATES_TO_END: Final = re.compile(r"[ -/]*+\Z")


class _Incomplete(Exception):
    """The text ends inside an escape sequence (raised only for a growing text)."""


class _Screen:
    """The current line and its cursor; the finished lines and their runs.

    A line only appended to (the usual case) is kept as chunks and runs; once
    the cursor goes back (``\\r``, ``\\b``) it becomes cells (a character and
    its style each), which overwriting needs. Either way, linear.
    """

    def __init__(self, overwrite: bool, growing: bool) -> None:
        self.overwrite = overwrite
        self.growing = growing
        self.done: list[str] = []
        self.runs: list[Run] = []
        self.offset = 0
        self.style = PLAIN
        self._new_line()

    def _new_line(self) -> None:
        self.parts: list[str] = []
        self.segments: list[Run] = []  # line-relative, while only appended to
        self.length = 0
        self.cells: list[str] | None = None
        self.styles: list[Style] = []
        self.col = 0

    def write(self, chunk: str) -> None:
        if self.cells is None:
            start, self.length = self.length, self.length + len(chunk)
            self.parts.append(chunk)
            self.col = self.length
            if self.style is not PLAIN and self.style != PLAIN:
                last = self.segments[-1] if self.segments else None
                if last is not None and last.end == start and last.style == self.style:
                    self.segments[-1] = Run(last.start, self.length, self.style)
                else:
                    self.segments.append(Run(start, self.length, self.style))
            return
        end = self.col + len(chunk)
        if self.col == len(self.cells):
            self.cells.extend(chunk)
            self.styles.extend([self.style] * len(chunk))
        else:
            self.cells[self.col : end] = chunk
            self.styles[self.col : end] = [self.style] * len(chunk)
        self.col = end

    def move(self, col: int) -> None:
        """Put the cursor at ``col`` (back from the end: the line becomes cells)."""
        if self.cells is None and col < self.length:
            self.cells = list("".join(self.parts))
            self.styles = [PLAIN] * self.length
            for run in self.segments:
                self.styles[run.start : run.end] = [run.style] * (run.end - run.start)
        self.col = col

    def erase_to_end(self) -> None:
        if self.cells is not None:  # else the cursor is at the end already
            del self.cells[self.col :], self.styles[self.col :]

    def end_line(self, newline: bool) -> None:
        """Move the current line to the finished text (with its runs)."""
        start = self.offset
        if self.cells is None:
            line = "".join(self.parts)
            self.runs += [Run(start + r.start, start + r.end, r.style) for r in self.segments]
        else:
            line = "".join(self.cells)
            for style, group in groupby(self.styles):
                size = len(list(group))
                if style != PLAIN:
                    self.runs.append(Run(start, start + size, style))
                start += size
        line += "\n" if newline else ""
        self.done.append(line)
        self.offset += len(line)
        self._new_line()


def parse_output(text: str, *, overwrite: bool = True) -> Styled:
    """Cleaned text with its styled runs; see the module docstring. Never raises."""
    return _parse(text, overwrite, growing=False)[0]


def parse_growing(text: str) -> tuple[Styled, int]:
    """A running call's output: ``\\r``/``\\b`` kept, and how much of ``text`` was read.

    Reading stops before an escape sequence the text ends inside (its end may
    still arrive), so the result for a longer text starts with this one.
    """
    return _parse(text, overwrite=False, growing=True)


def _parse(text: str, overwrite: bool, growing: bool) -> tuple[Styled, int]:
    if inert(text):  # printable lines only: as they are, no style (what _scan gives)
        return Styled(text), len(text)
    coloured = colours_only(text, MAX_SGR_PARAMS)  # lines and SGR codes only: appends
    return (coloured, len(text)) if coloured is not None else _scan(text, overwrite, growing)


def _scan(text: str, overwrite: bool, growing: bool) -> tuple[Styled, int]:
    screen = _Screen(overwrite, growing)
    index, size = 0, len(text)
    while index < size:
        found = _CONTROL.search(text, index)
        stop = found.start() if found else size
        if stop > index:
            screen.write(text[index:stop])
        if found is None:
            index = size
            break
        try:
            index = _control(text, stop, screen)
        except _Incomplete:
            index = stop
            break
    screen.end_line(newline=False)
    return Styled("".join(screen.done), tuple(screen.runs)), index


def _control(text: str, at: int, screen: _Screen) -> int:
    """Act on the control at ``at``; the index after it."""
    char = text[at]
    if char == "\n":
        screen.end_line(newline=True)
        return at + 1
    if char == "\r" and text.startswith("\n", at + 1):
        screen.end_line(newline=True)
        return at + 2
    if char == "\r" and screen.growing and at + 1 == len(text):
        raise _Incomplete  # a CR LF may be arriving
    if char in "\r\b" and not screen.overwrite:
        screen.write(char)
    elif char == "\r":
        screen.move(0)
    elif char == "\b":
        screen.move(max(0, screen.col - 1))
    elif char == "\x1b" or char == "\x9b" or char in _STRING_C1:
        return _escape(text, at, screen)
    else:
        screen.write(show_control(char))
    return at + 1


def _escape(text: str, at: int, screen: _Screen) -> int:
    """ESC and the 8-bit introducers: a sequence dropped, read, or its introducer shown."""
    char = text[at]
    after = text[at + 1 : at + 2]
    if char == "\x9b" or (char == "\x1b" and after == "["):
        return _csi(text, at + (1 if char == "\x9b" else 2), screen)
    if char in _STRING_C1 or after in _STRING_OPENERS:
        start = at + (1 if char in _STRING_C1 else 2)
        body = _BODY.match(text, start)
        end = body.end() if body else start
        terminator = _END.match(text, end)
        if terminator is not None:
            return terminator.end()
        at_end = end == len(text) or (end + 1 == len(text) and text[end] == "\x1b")
        if screen.growing and at_end and end - start <= STRING_MAX:
            raise _Incomplete  # its terminator may still arrive
        screen.write(show_control(char) if char in _STRING_C1 else "\u241b" + after)
        return start
    escape = _ESCAPE.match(text, at + 1)
    if escape is not None:
        return escape.end()
    if screen.growing and _INTERMEDIATES_TO_END.match(text, at + 1):
        raise _Incomplete  # ESC and intermediates only, up to the end
    screen.write("\u241b")
    return at + 1


def _csi(text: str, start: int, screen: _Screen) -> int:
    """A CSI: SGR is read, ``ESC[K`` erases when overwriting, anything else is dropped."""
    match = _CSI.match(text, start)
    assert match is not None  # every part is optional
    params, intermediates, final = match.groups()
    if screen.growing and not final and match.end() >= len(text):
        raise _Incomplete
    if final == "m" and not intermediates and len(params) <= MAX_SGR_PARAMS:
        screen.style = apply_sgr(params, screen.style)
    elif final == "K" and params in ("", "0") and not intermediates:
        if screen.overwrite:
            screen.erase_to_end()
        else:
            screen.write(ERASE_MARK)  # for the reader that applies \r and \b
    return match.end()
