"""A sub-agent under its call in HTML: a labelled section, its entries in a collapsed ``<details>``.

The headline (who, what, the counts) and the prompt are always shown; the
sub-agent's own entries — calls drawn as the thread's are, messages, notes —
sit in a ``<details>`` closed by default, whose id derives from the call's
(``tv-sub-…``) so a live page can keep it open across a redraw. A nested call
is an ``<article>`` with a ``tv-subcall-…`` id: never taken for one of the
thread's own calls (``tv-call-…``), which the live page replaces by id.
"""

from __future__ import annotations

from collections.abc import Callable

from toolview.render.bodies import SubAgent, SubMessage, SubNote
from toolview.render.html.ids import ID_PREFIX, call_element_id
from toolview.render.html.markup import esc
from toolview.render.html.receipt import note_markup
from toolview.render.limits import Window
from toolview.render.receipt import Receipt
from toolview.render.view import CallView
from toolview.render.words import sub_headline

__all__ = ["SUBCALL_PREFIX", "SUB_PREFIX", "sub_agent_html"]

SUB_PREFIX = "tv-sub-"
SUBCALL_PREFIX = "tv-subcall-"


def sub_agent_html(
    sub: SubAgent,
    element_id: str,
    call: Callable[[CallView | Receipt, str], str],
    message: Callable[[str, Window], str],
) -> str:
    """``<section class="tv-subagent">``: headline, prompt, then the entries, collapsed."""
    head = f'<p class="tv-subagent-head">{esc(sub_headline(sub))}</p>'
    if sub.cut is not None:
        return f'<section class="tv-subagent" aria-label="Sub-agent">{head}</section>'
    prompt = message("prompt", sub.prompt) if sub.prompt is not None else ""
    pieces = []
    for part, raw_id in zip(sub.entries, sub.call_ids, strict=True):
        if isinstance(part, SubMessage):
            pieces.append(message(part.role, part.text))
        elif isinstance(part, SubNote):
            pieces.append(note_markup(part.text))
        else:
            nested_id = SUBCALL_PREFIX + call_element_id(raw_id or "")[len(ID_PREFIX) :]
            pieces.append(call(part, nested_id))
    if sub.more is not None:
        pieces.append(f'<p class="tv-meta">{esc(str(sub.more))} of the sub-agent</p>')
    details = ""
    if pieces:
        count = len(sub.entries)
        label = f"The sub-agent's {count:,} entr{'y' if count == 1 else 'ies'}"
        prefix = SUBCALL_PREFIX if element_id.startswith(SUBCALL_PREFIX) else ID_PREFIX
        details_id = SUB_PREFIX + element_id[len(prefix) :]
        details = (
            f'<details class="tv-subagent-entries" id="{esc(details_id)}">'
            f"<summary>{esc(label)}</summary>"
            f'<div class="tv-subthread">{"".join(pieces)}</div></details>'
        )
    return f'<section class="tv-subagent" aria-label="Sub-agent">{head}{prompt}{details}</section>'
