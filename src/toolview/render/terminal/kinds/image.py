"""The ``image`` kind in a terminal: a placeholder with its type and size."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from toolview.render.clean import clean_field
from toolview.render.props import ImageProps
from toolview.render.terminal.styled import truncation_text
from toolview.render.view import KindBody
from toolview.render.words import image_label

__all__ = ["image"]

_FIELD = 500


def image(body: KindBody) -> RenderableType:
    props: ImageProps = body.props
    text = Text(image_label(props), style="magenta")
    if isinstance(props.alt, str) and props.alt:
        text.append(f" {clean_field(props.alt, _FIELD)}")
    return Group(text, *truncation_text(body.truncated))
