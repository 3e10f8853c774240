"""The ``shell`` kind as plain lines: the command, its output's tail, stderr, the exit code."""

from __future__ import annotations

from toolview.contract import ShellProps
from toolview.render.clean import clean_field, shown_output
from toolview.render.limits import truncation_omission
from toolview.render.text.lines import cut_lines, window_lines
from toolview.render.view import KindBody
from toolview.render.words import exit_text

__all__ = ["shell"]

_FIELD = 500


def shell(body: KindBody) -> list[str]:
    props: ShellProps = body.props
    # Command output keeps its tail, so what a tool left out came before it.
    tool = truncation_omission(body.truncated)
    lines = [f"$ {clean_field(props.command, _FIELD)}"]
    if props.stdout:
        stdout = shown_output(props.stdout, body.limits)
        lines += window_lines(stdout, tool, tool_before=True)
    else:
        lines += cut_lines(None, tool)
    if props.stderr:
        lines += ["stderr:", *window_lines(shown_output(props.stderr, body.limits))]
    if not props.stdout and not props.stderr:
        lines.append("(no output)")
    return [*lines, exit_text(props.exit_code)]
