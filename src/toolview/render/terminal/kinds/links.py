"""The ``links`` kind as Rich ``Text``: numbered titles, each URL underlined only if safe."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from toolview.render.clean import clean_field
from toolview.render.limits import Omission
from toolview.render.props import LinksProps
from toolview.render.terminal.styled import omission_text, truncation_text
from toolview.render.view import KindBody
from toolview.safety import safe_url

__all__ = ["links"]

_FIELD = 500


def links(body: KindBody) -> RenderableType:
    props: LinksProps = body.props
    text = Text()
    shown = props.links[: body.limits.max_links]
    for number, link in enumerate(shown, start=1):
        if number > 1:
            text.append("\n")
        text.append(f"{number}. ")
        text.append(clean_field(link.title, _FIELD), style="bold")
        url = clean_field(link.url, _FIELD)
        # No OSC 8 hyperlink: the only escapes this surface writes are colours.
        text.append("\n   ")
        if safe_url(link.url):
            text.append(url, style="underline blue")
        else:
            text.append(f"{url} (not an http/https link)", style="dim")
        if isinstance(link.snippet, str) and link.snippet:
            text.append(f"\n   {clean_field(link.snippet, _FIELD, 'space')}")
    parts: list[RenderableType] = [text if shown else Text("(no links)", style="dim")]
    if len(props.links) > len(shown):
        parts.append(omission_text(Omission(len(props.links) - len(shown), "items")))
    return Group(*parts, *truncation_text(body.truncated))
