"""Command output cleaned with its colours kept: redaction that moves the styled runs.

``clean_output`` is ``clean_text`` for command output (``safety.ansi``: SGR
kept as runs, ``\\r``/``\\b`` applied), then redaction on what is *shown* --
so a secret split by colour codes (``ghp_abc\\x1b[0mdef…``) is whole again and
caught. A mark replaces a secret; the runs after it move by the difference,
and a run's edge inside a secret moves to the mark's start.

``live_output`` is what a running call's output crosses to a browser as: no
escape sequence at all, ``\\r``/``\\b`` left for the page to apply, and each
style change written as SUB (U+001A) + a canonical SGR parameter list + ``m``
(and ``ESC[K`` as SUB + ``K``) -- a form no tool output can forge, since
cleaning turns every C0 control a tool sends (SUB included) into its control
picture.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from toolview.safety.ansi import parse_growing, parse_output
from toolview.safety.partial import held_back
from toolview.safety.secrets import mark, rebuild, redact, secret_spans
from toolview.safety.sgr import Run, Styled, wire_params

__all__ = ["STYLE_MARK", "clean_output", "clip_runs", "live_output", "redact_styled"]

STYLE_MARK: Final = "\x1a"
"""Starts a style change in live output: ``\\x1a0;1;38;5;1m``."""


def clean_output(text: str) -> Styled:
    """Command output as a terminal would show it, neutralized, redacted, styles kept."""
    return redact_styled(parse_output(text))


def redact_styled(styled: Styled) -> Styled:
    """``redact`` of the text, the runs moved with it."""
    spans = secret_spans(styled.text)
    if not spans:
        return styled
    return Styled(rebuild(styled.text, spans), _moved(styled.runs, spans))


def _moved(runs: tuple[Run, ...], spans: list[tuple[int, int, str]]) -> tuple[Run, ...]:
    """Each run's edges mapped through the replacements (one merged pass); empty runs dropped."""
    mover = _Mover(spans)
    out = [Run(mover.place(run.start), mover.place(run.end), run.style) for run in runs]
    return tuple(run for run in out if run.end > run.start)


class _Mover:
    """Maps positions of the text to the redacted text; positions must not decrease."""

    def __init__(self, spans: list[tuple[int, int, str]]) -> None:
        self.spans = spans
        self.index = 0
        self.shift = 0  # how far positions after the passed spans moved

    def place(self, position: int) -> int:
        while self.index < len(self.spans) and self.spans[self.index][1] <= position:
            start, end, name = self.spans[self.index]
            self.shift += len(mark(name)) - (end - start)
            self.index += 1
        if self.index < len(self.spans) and self.spans[self.index][0] < position:
            return self.spans[self.index][0] + self.shift  # inside a secret: the mark's start
        return position + self.shift


def clip_runs(runs: tuple[Run, ...], start: int, end: int) -> tuple[Run, ...]:
    """The runs within ``[start, end)``, made relative to ``start``."""
    return tuple(
        Run(max(run.start, start) - start, min(run.end, end) - start, run.style)
        for run in runs
        if run.end > start and run.start < end
    )


def live_output(text: str, redact_text: Callable[[str], str] = redact, *, complete: bool) -> str:
    """A call's accumulated output as it crosses to a browser (see the module docstring).

    While it runs, reading stops before an unfinished escape sequence and the
    last token is held back (``safety.partial``), so the result for a longer
    text starts with this one: live frames stay appends. ``redact_text`` is
    the follower's redaction; a custom one that changes the text costs the
    styles (its marks cannot be placed), never the redaction.
    """
    if complete:
        styled = parse_output(text, overwrite=False)
    else:
        styled = parse_growing(text)[0]
        cut = held_back(styled.text)
        styled = Styled(styled.text[:cut], clip_runs(styled.runs, 0, cut))
    redacted = redact_text(styled.text)
    if redacted != styled.text:
        moved = redact_styled(styled)
        styled = moved if moved.text == redacted else Styled(redacted)
    return _marked(styled)


def _marked(styled: Styled) -> str:
    """The text with a style mark at each run's start, and a reset where plain text resumes."""
    parts: list[str] = []
    position = 0
    for run in styled.runs:
        if run.start > position and parts:
            parts.append(f"{STYLE_MARK}0m")
        parts += [styled.text[position : run.start], f"{STYLE_MARK}{wire_params(run.style)}m"]
        parts.append(styled.text[run.start : run.end])
        position = run.end
    if position < len(styled.text) and parts:
        parts.append(f"{STYLE_MARK}0m")
    parts.append(styled.text[position:])
    return "".join(parts)
