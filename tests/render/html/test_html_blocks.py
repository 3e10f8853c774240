"""The ``blocks`` kind on HTML: each MCP block shown safely and in order."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from html_markup import parse

from toolview.contract import Descriptor, ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.render.html import REGISTRY, render_thread_html
from toolview.render.view import KindBody

PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4"
    "2mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="
)


def render(*blocks: dict[str, Any], **extra: Any) -> str:
    props = {"blocks": list(blocks), **extra}
    thread = Thread.from_observations(
        [
            ToolCall("c", "mcp", {}),
            ToolResult("c", "mcp", "the text", True, False, Descriptor("blocks", props)),
        ]
    )
    html = render_thread_html(thread)
    assert parse(html).problems() == []
    assert "no renderer for kind" not in html
    return html


def test_blocks_keep_their_order() -> None:
    html = render({"type": "text", "text": "first"}, {"type": "text", "text": "second"})
    assert html.index("first") < html.index("second")
    assert html.count('class="tv-block tv-block-text"') == 2


def test_text_is_escaped_and_cleaned() -> None:
    html = render({"type": "text", "text": "<script>x</script>\x1b[31m password=hunter2222"})
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "\x1b" not in html and "hunter2222" not in html


def test_a_valid_png_is_inlined_and_anything_else_is_a_placeholder_with_the_reason() -> None:
    html = render(
        {"type": "image", "mimeType": "image/png", "size": 67, "data": PNG},
        {"type": "image", "mimeType": "image/svg+xml", "size": 5, "data": "PHN2Zz4="},
        {"type": "image", "mimeType": "image/png", "size": 9_000_000},
        {"type": "image", "mimeType": "image/png", "data": "bm90IGEgcG5n"},
    )
    assert html.count("<img") == 1 and f"data:image/png;base64,{PNG}" in html
    assert "[image/svg+xml 5 B — not shown: type image/svg+xml not allowed]" in html
    assert "[image/png 8.6 MB — not shown: no image data was sent]" in html
    assert html.count("not shown:") == 3


def test_audio_and_blobs_are_only_named_and_sized() -> None:
    html = render(
        {"type": "audio", "mimeType": "audio/wav", "size": 12000},
        {"type": "resource", "uri": "file:///b.bin", "blobSize": 4096},
    )
    assert "[audio/wav 11.7 KB — not shown" in html
    assert "resource file:///b.bin [blob 4.0 KB — not shown]" in html
    assert "<audio" not in html and "<pre" not in html


def test_resource_links_are_links_only_for_http() -> None:
    html = render(
        {"type": "resource_link", "uri": "https://example.com/r", "name": "r", "title": "R"},
        {"type": "resource_link", "uri": "file:///etc/hosts", "name": "hosts"},
        {"type": "resource_link", "uri": "javascript:alert(1)", "name": "evil"},
    )
    hrefs = [
        attrs["href"]
        for tag, attrs in parse(html).tags
        if tag == "a" and attrs.get("class") != "tv-permalink"
    ]
    assert hrefs == ["https://example.com/r"]
    assert "file:///etc/hosts (not an http/https link)" in html


def test_embedded_text_is_cleaned_in_a_pre() -> None:
    html = render(
        {"type": "resource", "uri": "file:///a", "mimeType": "text/plain", "text": "a\n<b>b</b>"}
    )
    assert '<pre class="tv-pre">a\n&lt;b&gt;b&lt;/b&gt;</pre>' in html


def test_unknown_blocks_show_the_reason_and_bounded_json() -> None:
    html = render(
        {
            "type": "unknown",
            "originalType": "hologram",
            "json": {"items": list(range(500))},
            "reason": "unknown type",
        }
    )
    assert "unreadable block of type &#x27;hologram&#x27;: unknown type" in html
    assert "… 450 more items" in html


def test_a_ui_pointer_is_a_notice_never_a_frame() -> None:
    html = render({"type": "ui", "resourceUri": "ui://widget/1", "source": "meta.ui"})
    assert "interactive UI ui://widget/1 — not rendered" in html
    assert "<iframe" not in html and 'ui://widget/1"' not in html


def test_notes_progress_and_emptiness_are_visible() -> None:
    html = render(
        {"type": "text", "text": ""},
        notes=["1 block for the assistant only"],
        progress={"progress": 3, "total": 10, "message": "copying"},
    )
    assert "progress 3/10 — copying" in html
    assert "note: 1 block for the assistant only" in html
    assert "(empty text)" in html
    assert "(no content)" in render()


@pytest.fixture
def custom_table() -> Iterator[None]:
    def renderer(body: KindBody) -> str:
        return f'<p class="tv-meta">custom table of {len(body.props.rows)} rows</p>'

    previous = REGISTRY.register("table", renderer)
    yield
    assert previous is not None
    REGISTRY.register("table", previous)


def test_structured_content_goes_through_the_html_registry(custom_table: None) -> None:
    html = render(
        {"type": "structured", "view": "table", "props": {"columns": ["a"], "rows": [[1]]}}
    )
    assert "custom table of 1 rows" in html


def test_structured_content_that_breaks_its_view_is_noted_with_its_json() -> None:
    html = render(
        {"type": "structured", "view": "table", "props": {"columns": ["a"], "rows": [[1, 2]]}},
        {"type": "structured", "view": "json", "props": {"value": {"k": "v"}}},
    )
    assert "structured content is not a valid &#x27;table&#x27;" in html
    assert "&quot;k&quot;: &quot;v&quot;" in html


def test_a_failing_view_renderer_is_contained() -> None:
    def boom(body: KindBody) -> str:
        raise RuntimeError("bug")

    previous = REGISTRY.register("json", boom)
    try:
        html = render({"type": "structured", "view": "json", "props": {"value": [1, 2]}})
    finally:
        assert previous is not None
        REGISTRY.register("json", previous)
    assert "the renderer for kind &#x27;json&#x27; failed (RuntimeError); showing its JSON" in html
    assert "1,\n    2" in html
