"""The ``shell`` kind in Markdown: the command and its output's tail fenced, then stderr
and the exit code."""

from __future__ import annotations

from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import truncation_omission
from toolview.render.markdown.escape import code_block, cut_md, inline, window_block
from toolview.render.props import ShellProps
from toolview.render.view import KindBody
from toolview.render.words import exit_text

__all__ = ["shell"]

_FIELD = 500


def shell(body: KindBody) -> list[str]:
    props: ShellProps = body.props
    stdout = shown_text(props.stdout, body.limits, "tail")
    command = f"$ {clean_field(props.command, _FIELD)}"
    before = cut_md(stdout.before, truncation_omission(body.truncated))
    out = [*before, code_block(f"{command}\n{stdout.text}", "console")]
    if props.stderr:
        out += ["stderr:", *window_block(shown_text(props.stderr, body.limits, "tail"))]
    if not props.stdout and not props.stderr:
        out.append("_(no output)_")
    return [*out, inline(exit_text(props.exit_code))]
