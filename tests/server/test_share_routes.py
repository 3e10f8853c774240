"""The live page's Share action: the review first, then the same redacted document as
``toolview share`` writes, as a download; no planted credential in any answer."""

from __future__ import annotations

import html
import re

from starlette.testclient import TestClient

from corpora.secrets import SECRETS
from toolview.contract import Observation, ToolCall, ToolResult, encode_observation


def _planted(client: TestClient) -> dict[str, str]:
    """Thread ``t``: each corpus credential in a call's output; ``{label: call id}``."""
    client.post("/api/threads", json={"id": "t"})
    places: dict[str, str] = {}
    observations: list[Observation] = []
    for number, (label, (text, _)) in enumerate(SECRETS.items()):
        call_id = f"c{number:02d}"
        observations.append(ToolCall(call_id, "shell", {"command": "cat config"}))
        observations.append(ToolResult(call_id, "shell", text, complete=True, is_error=False))
        places[label] = call_id
    body = b"\n".join(encode_observation(o) for o in observations)
    assert client.post("/api/threads/t/observations", content=body).status_code < 300
    return places


def _leaked(text: str) -> list[str]:
    return [
        label
        for label, (_, secret) in SECRETS.items()
        if secret in text or html.escape(secret) in text
    ]


def test_the_review_lists_every_planted_credential_by_its_call(client: TestClient) -> None:
    places = _planted(client)
    page = client.get("/threads/t/share")
    assert page.status_code == 200
    assert _leaked(page.text) == []
    missing = [
        label for label, call in places.items() if f"call {call} shell: output" not in page.text
    ]
    assert missing == []
    counted = re.search(r"(\d+) redactions \(the values are not shown\)", page.text)
    assert counted and int(counted.group(1)) >= len(places)  # some entries hold two
    assert 'href="/threads/t/share.html" download' in page.text
    assert "<script" not in page.text


def test_the_downloads_hold_no_planted_credential(client: TestClient) -> None:
    _planted(client)
    for name, start in (("share.html", "<!DOCTYPE html>"), ("share.md", "# t")):
        answer = client.get(f"/threads/t/{name}")
        assert answer.status_code == 200
        assert answer.headers["content-disposition"] == f'attachment; filename="t.{name[6:]}"'
        assert answer.text.startswith(start)
        assert _leaked(answer.text) == []
        assert "[redacted: github-token]" in answer.text.replace("\\", "")


def test_the_thread_page_links_to_share_and_an_unknown_thread_is_404(client: TestClient) -> None:
    _planted(client)
    assert 'href="/threads/t/share"' in client.get("/threads/t").text
    assert client.get("/threads/nope/share").status_code == 404
    assert client.get("/threads/nope/share.md").status_code == 404
