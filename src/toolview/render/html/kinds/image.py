"""The ``image`` kind in HTML: inlined only when ``check_image`` says so.

Only png, jpeg, gif and webp, valid base64, real magic bytes, under the size
cap become a ``data:`` image (the page's policy allows ``img-src data:`` and
nothing else); anything else is a visible placeholder naming the type, the
size and the reason, e.g. ``[image/svg+xml 4.0 KB — not shown: type ... not
allowed]``. An image is never loaded from a URL.
"""

from __future__ import annotations

from toolview.render.clean import clean_field
from toolview.render.html.markup import esc, truncation_html
from toolview.render.props import ImageProps
from toolview.render.view import KindBody
from toolview.render.words import image_label
from toolview.safety import check_image

__all__ = ["render_image"]

_ALT_CHARS = 300


def render_image(body: KindBody) -> str:
    """An ``<img>`` with a ``data:`` URL, or a placeholder saying why not."""
    props: ImageProps = body.props
    alt = clean_field(props.alt, _ALT_CHARS) if isinstance(props.alt, str) else ""
    data = props.data.strip()
    reason = check_image(props.mime_type, data)
    caption = f'<figcaption class="tv-meta">{esc(alt)}</figcaption>' if alt else ""
    if reason is not None:
        label = image_label(props)
        placeholder = f"{label[:-1]} — not shown: {clean_field(reason, 200)}]"
        return f'<p class="tv-placeholder">{esc(placeholder)}</p>{caption}' + truncation_html(
            body.truncated
        )
    mime = props.mime_type.strip().lower()
    return (
        f'<figure class="tv-image"><img src="data:{esc(mime)};base64,{esc(data)}" '
        f'alt="{esc(alt or image_label(props))}">{caption}</figure>'
        + truncation_html(body.truncated)
    )
