"""The ``shell`` kind in HTML: the command, its output's tail, stderr apart, the exit code.

Output is cut to its *last* lines (a log's verdict is at its end) before any
markup is built, and what was cut is a disclosure, as on every surface.
"""

from __future__ import annotations

from toolview.contract import ShellProps
from toolview.render.clean import clean_field, shown_output
from toolview.render.html.markup import esc, truncation_html, window_block
from toolview.render.view import KindBody
from toolview.render.words import exit_text

__all__ = ["render_shell"]

_COMMAND_CHARS = 2000


def render_shell(body: KindBody) -> str:
    """``$ command``, stdout, stderr (marked), then how the command ended."""
    props: ShellProps = body.props
    parts = [f'<div class="tv-command">$ {esc(clean_field(props.command, _COMMAND_CHARS))}</div>']
    # Output is a tail, so what the tool itself left out reads above it.
    if props.stdout:
        stdout = shown_output(props.stdout, body.limits)
        parts.append(window_block(stdout, end=True, truncated=body.truncated))
    else:
        parts.append(truncation_html(body.truncated))
    if props.stderr:
        parts.append('<div class="tv-label">stderr</div>')
        parts.append(window_block(shown_output(props.stderr, body.limits), "tv-stderr", end=True))
    if not props.stdout and not props.stderr:
        parts.append('<p class="tv-empty">(no output)</p>')
    parts.append(f'<div class="tv-meta">{esc(exit_text(props.exit_code))}</div>')
    return "".join(parts)
