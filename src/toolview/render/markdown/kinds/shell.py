"""The ``shell`` kind in Markdown: the command and its output's tail fenced, then stderr
and the exit code."""

from __future__ import annotations

from toolview.contract import ShellProps
from toolview.render.clean import clean_field, shown_output
from toolview.render.limits import truncation_omission
from toolview.render.markdown.escape import code_block, cut_md, inline, window_block
from toolview.render.view import KindBody
from toolview.render.words import exit_text

__all__ = ["shell"]

_FIELD = 500


def shell(body: KindBody) -> list[str]:
    props: ShellProps = body.props
    stdout = shown_output(props.stdout, body.limits)
    command = f"$ {clean_field(props.command, _FIELD)}"
    before = cut_md(stdout.before, truncation_omission(body.truncated))
    out = [*before, code_block(f"{command}\n{stdout.text}", "console")]
    if props.stderr:
        out += ["stderr:", *window_block(shown_output(props.stderr, body.limits))]
    if not props.stdout and not props.stderr:
        out.append("_(no output)_")
    return [*out, inline(exit_text(props.exit_code))]
