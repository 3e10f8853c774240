"""``GET /api/threads/{id}/calls/{call}/app`` attacked with forged results.

A result anyone may POST can claim to be an MCP App: its props are untrusted
here as everywhere. A forged origin never reaches the policy, malformed props
are a 404 under the pages' own headers, and only the ``mcp-app`` kind is served.
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.testclient import TestClient

SECRET = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def _thread(client: TestClient, *results: tuple[str, dict[str, Any] | None]) -> None:
    client.post("/api/threads", json={"id": "t"})
    observations: list[dict[str, Any]] = []
    for call_id, descriptor in results:
        observations.append(
            {"kind": "tool-call", "toolCallId": call_id, "toolName": "app", "args": {}}
        )
        result = {
            "kind": "tool-result",
            "toolCallId": call_id,
            "toolName": "app",
            "text": "t",
            "complete": True,
            "isError": False,
        }
        if descriptor is not None:
            result["descriptor"] = descriptor
        observations.append(result)
    answer = client.post("/api/threads/t/observations", json=observations)
    assert answer.status_code < 300, answer.text


def _app(props: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "mcp-app", "props": {"resourceUri": "ui://a/b", **props}}


def test_forged_origins_never_reach_the_policy_and_secrets_are_redacted(
    client: TestClient,
) -> None:
    csp = {
        "connectDomains": ["https://ok.example.com", "https://x.com; script-src *", "*"],
        "resourceDomains": ["'unsafe-eval'", "https://cdn.example.com"],
    }
    _thread(client, ("c1", _app({"html": f"<p>{SECRET}</p>", "csp": csp})))
    answer = client.get("/api/threads/t/calls/c1/app")
    assert answer.status_code == 200
    policy = answer.headers["content-security-policy"]
    assert policy.startswith("sandbox allow-scripts; default-src 'none'; ")
    assert "connect-src https://ok.example.com;" in policy
    assert "script-src 'unsafe-inline' https://cdn.example.com;" in policy
    assert "unsafe-eval" not in policy and "*" not in policy and "x.com" not in policy
    assert SECRET not in answer.text  # redacted like every answer


@pytest.mark.parametrize(
    "descriptor",
    [
        None,  # no descriptor
        {"kind": "markdown", "props": {"markdown": "<script>1</script>"}},  # another kind
        _app({"html": ["<p>"]}),  # html not text
        _app({"html": "<p>", "csp": "default-src *"}),  # csp not an object
        {"kind": "mcp-app", "props": {"html": "<p>"}},  # no resourceUri
    ],
)
def test_anything_but_an_app_is_a_404_under_the_pages_headers(
    client: TestClient, descriptor: dict[str, Any] | None
) -> None:
    _thread(client, ("c1", descriptor), ("c2", _app({"html": "<p>an app</p>"})))
    assert client.get("/api/threads/t/calls/c2/app").text == "<p>an app</p>"  # beside it
    answer = client.get("/api/threads/t/calls/c1/app")
    assert answer.status_code == 404
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")
    assert answer.headers["x-frame-options"] == "DENY"


def test_a_call_without_a_result_or_of_another_thread_is_a_404(client: TestClient) -> None:
    _thread(client, ("c1", _app({"html": "<p>"})))
    assert client.get("/api/threads/t/calls/nope/app").status_code == 404
    assert client.get("/api/threads/other/calls/c1/app").status_code == 404
    assert client.get("/api/threads/t/calls/c1/app").status_code == 200
