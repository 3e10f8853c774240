"""The ``shell`` kind as Rich renderables: the command, its output's tail, stderr in red
under its label, the exit code."""

from __future__ import annotations

from rich.console import Group, RenderableType

from toolview.contract import ShellProps
from toolview.render.clean import clean_field, shown_output
from toolview.render.limits import truncation_omission
from toolview.render.terminal.fit import FitText
from toolview.render.terminal.styled import cut_text, window_text
from toolview.render.view import KindBody
from toolview.render.words import exit_text

__all__ = ["shell"]

_FIELD = 500


def shell(body: KindBody) -> RenderableType:
    props: ShellProps = body.props
    parts: list[RenderableType] = [FitText(f"$ {clean_field(props.command, _FIELD)}", style="bold")]
    tool = truncation_omission(body.truncated)  # command output keeps its tail
    if props.stdout:
        stdout = shown_output(props.stdout, body.limits)
        parts.append(window_text(stdout, tool=tool, tool_before=True))
    else:
        parts += cut_text(None, tool)
    if props.stderr:  # set apart and labelled, so it reads as stderr without colour too
        stderr = shown_output(props.stderr, body.limits)
        parts += [FitText("stderr:", style="bold red"), window_text(stderr, style="red")]
    if not props.stdout and not props.stderr:
        parts.append(FitText("(no output)", style="dim"))
    ok = props.exit_code == 0
    parts.append(FitText(exit_text(props.exit_code), style="green" if ok else "red"))
    return Group(*parts)
