"""MCP Apps through the MCP host: a real server's ``ui://`` app read when the call is made.

The server is ``app_server.py`` (the SDK's ``MCPServer``), called by the real
``toolview mcp call``; the bounds and refusals of the reader are checked on the
pure function with hostile answers.
"""

from __future__ import annotations

from pathlib import Path

from app_server import APPS, record

from toolview.contract import Descriptor, ToolResult, decode_observation
from toolview.contract.mcp_app import MAX_APP_BYTES, MCP_APP_KIND, MCP_APP_MIME
from toolview.hosts.mcp.app import app_props, app_uri


def _results(path: Path) -> dict[str, ToolResult]:
    kept = (decode_observation(line) for line in path.read_bytes().splitlines())
    return {o.tool_name: o for o in kept if isinstance(o, ToolResult)}


def test_a_tools_app_is_read_when_the_call_is_made_and_kept_with_its_result(
    tmp_path: Path,
) -> None:
    calls = [("weather", '{"city": "Oslo"}'), ("elsewhere", "{}"), ("plain", "{}")]
    results = _results(record(tmp_path / "calls.jsonl", *calls))
    weather = results["weather"]
    assert isinstance(weather.descriptor, Descriptor)
    assert weather.descriptor.kind == MCP_APP_KIND
    props = weather.descriptor.props
    assert props["html"] == (APPS / "weather.html").read_text()
    assert props["resourceUri"] == "ui://weather/app.html"
    assert props["toolInput"] == {"city": "Oslo"}
    assert props["toolResult"]["content"] == [{"type": "text", "text": "Sunny in Oslo, 21 °C"}]
    # the declared origin is kept; one with a quote and a `;` never reaches a policy
    assert props["csp"] == {"connectDomains": ["https://api.example.com"]}
    assert "Sunny in Oslo, 21 °C" in weather.text  # the fallback every other surface shows
    assert "is not https://host; dropped" in weather.text
    # a UI that is not ui:// is never fetched: the old notice and the text
    elsewhere = results["elsewhere"]
    assert isinstance(elsewhere.descriptor, Descriptor)
    assert elsewhere.descriptor.kind != MCP_APP_KIND
    assert "toolview does not render a server's UI" in elsewhere.text
    assert results["plain"].text == "just text"


def _read(text: object, mime: str = MCP_APP_MIME, uri: str = "ui://a/b") -> dict[str, object]:
    return {"contents": [{"uri": uri, "mimeType": mime, "text": text}]}


def test_only_an_mcp_app_document_of_at_most_1_mib_is_kept() -> None:
    fits = "x" * MAX_APP_BYTES
    assert app_props(_read(fits), "ui://a/b", {}, {})[0] is not None
    over = "é" * (MAX_APP_BYTES // 2 + 1)  # counted in bytes, not characters
    assert app_props(_read(over), "ui://a/b", {}, {}) == (
        None,
        ["ui://a/b is over 1024 KiB; not kept"],
    )
    for hostile in (
        _read("<p>", mime="text/html"),  # not the MCP Apps profile
        _read(["<p>"]),  # not text
        _read("<p>", uri="ui://other"),  # content for another resource
        {"contents": "nope"},
        "not an object",
    ):
        app, notes = app_props(hostile, "ui://a/b", {}, {})
        assert app is None and notes


def test_declared_origins_are_plain_https_origins_or_dropped() -> None:
    meta = {
        "ui": {
            "csp": {
                "resourceDomains": [
                    "https://cdn.example.com",
                    "https://cdn.example.com:8443",
                    "http://plain.example.com",
                    "https://*.example.com",
                    "https://a.example.com/path",
                    "https://x.com 'unsafe-eval'",
                    7,
                ]
            }
        }
    }
    read = {
        "contents": [{"uri": "ui://a/b", "mimeType": MCP_APP_MIME, "text": "<p>", "_meta": meta}]
    }
    app, notes = app_props(read, "ui://a/b", {}, {})
    assert app is not None
    assert app.csp.resource_domains == ["https://cdn.example.com", "https://cdn.example.com:8443"]
    assert len(notes) == 5


def test_only_a_ui_uri_named_by_meta_ui_is_an_app() -> None:
    assert app_uri({"ui": {"resourceUri": "ui://w/app"}}) == "ui://w/app"
    assert app_uri({"ui/resourceUri": "ui://old/app"}) == "ui://old/app"
    assert app_uri({"ui": {"resourceUri": "file:///etc/passwd"}}) is None
    assert app_uri({"ui": {"resourceUri": "https://example.com/app"}}) is None
    assert app_uri({"openai/outputTemplate": "ui://openai/app"}) is None
    assert app_uri(None, {"ui": {"resourceUri": "ui://from/result"}}) == "ui://from/result"
