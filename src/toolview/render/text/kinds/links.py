"""The ``links`` kind as plain lines: numbered titles, each URL said safe or not."""

from __future__ import annotations

from toolview.render.clean import clean_field
from toolview.render.limits import Omission
from toolview.render.props import LinksProps
from toolview.render.text.lines import truncation_lines
from toolview.render.view import KindBody
from toolview.safety import safe_url

__all__ = ["links"]

_FIELD = 500


def links(body: KindBody) -> list[str]:
    props: LinksProps = body.props
    lines: list[str] = []
    for number, link in enumerate(props.links[: body.limits.max_links], start=1):
        url = clean_field(link.url, _FIELD)
        where = url if safe_url(link.url) else f"{url} (not an http/https link)"
        lines.append(f"{number}. {clean_field(link.title, _FIELD)} <{where}>")
        if isinstance(link.snippet, str) and link.snippet:
            lines.append(f"   {clean_field(link.snippet, _FIELD, 'space')}")
    if len(props.links) > body.limits.max_links:
        lines.append(str(Omission(len(props.links) - body.limits.max_links, "items")))
    return (lines or ["(no links)"]) + truncation_lines(body.truncated)
