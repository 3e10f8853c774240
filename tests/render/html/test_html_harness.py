"""The browser harness itself can fail: each hostile effect is detected."""

from __future__ import annotations

import pytest
from html_browser import OpenHtml

pytestmark = pytest.mark.browser


def test_harness_sees_what_a_live_payload_does(open_html: OpenHtml) -> None:
    report = open_html(
        "<p>x</p><script>console.log('pwned'); window.__pwned = 1; alert('hi')</script>"
        "<img src=x onerror=\"fetch('http://127.0.0.1:9/pwned')\">"
        "<a href='javascript:void(0)'>j</a>"
    )
    assert report.dialogs == ["hi"]
    assert any("pwned" in line for line in report.console)
    assert report.dom["pwned"] is True
    assert report.dom["scripts"] == 1
    assert report.dom["handlers"] == ["IMG onerror"]
    assert any(url.startswith("http://127.0.0.1:9/pwned") for url in report.requests)
    with pytest.raises(AssertionError):
        report.assert_inert()


def test_harness_passes_an_inert_page_from_a_file(open_html: OpenHtml) -> None:
    report = open_html(
        "<!doctype html><meta charset=utf-8><p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"
        "<a href='https://example.com/'>ok</a>",
        via="file",
    )
    report.assert_inert()
