"""The ``image`` kind as plain text: a placeholder with its type and size."""

from __future__ import annotations

from toolview.render.clean import clean_field
from toolview.render.props import ImageProps
from toolview.render.text.lines import truncation_lines
from toolview.render.view import KindBody
from toolview.render.words import image_label

__all__ = ["image"]

_FIELD = 500


def image(body: KindBody) -> list[str]:
    props: ImageProps = body.props
    alt = f" {clean_field(props.alt, _FIELD)}" if isinstance(props.alt, str) and props.alt else ""
    return [f"{image_label(props)}{alt}", *truncation_lines(body.truncated)]
