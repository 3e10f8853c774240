"""The ``links`` kind in Markdown: a numbered list, a link only for an http/https URL."""

from __future__ import annotations

from toolview.render.clean import clean_field
from toolview.render.limits import Omission
from toolview.render.markdown.escape import inline, link, omission_md, truncation_md
from toolview.render.props import LinksProps
from toolview.render.view import KindBody

__all__ = ["links"]

_FIELD = 500


def links(body: KindBody) -> list[str]:
    props: LinksProps = body.props
    items: list[str] = []
    for number, item in enumerate(props.links[: body.limits.max_links], start=1):
        entry = f"{number}. {link(clean_field(item.title, _FIELD), clean_field(item.url, _FIELD))}"
        if isinstance(item.snippet, str) and item.snippet:
            entry += f" — {inline(clean_field(item.snippet, _FIELD, 'space'))}"
        items.append(entry)
    out = ["\n".join(items)] if items else ["_(no links)_"]
    if len(props.links) > body.limits.max_links:
        out += omission_md(Omission(len(props.links) - body.limits.max_links, "items"))
    return out + truncation_md(body.truncated)
