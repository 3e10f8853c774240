"""The index (``/``) in a real Chromium: real sessions of every agent side by side.

A real Claude Code session and a real Codex rollout (tests/hosts fixtures,
``serve --watch``), a run of the real pi (the scripted model of
tests/hosts/pi, its observations posted as ``pi-<session>``) and a real
``capture()`` run publishing to the server: one index lists the four with
human titles (no machine id, no markup), each agent named, a status each;
the filters, a column's sort, the pager and the keys work; the search box
finds a word of one session and its link lands on the matching call; axe-core
finds no serious or critical violation in light, dark and at 390 px.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from axe import axe_violations
from page_browser import in_browser
from playwright.sync_api import Page, expect
from toolview_servers import NDJSON, ToolviewServer
from viewer_page import DESKTOP, PHONE

import toolview
from toolview.contract import encode_observation

TESTS = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(TESTS / "hosts"))
from pi.conftest import PI_BIN, run_scripted  # noqa: E402
from pi.model_server import Call, Turn  # noqa: E402

pytestmark = pytest.mark.browser

CLAUDE = TESTS / "hosts" / "claude_code" / "real" / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"
CODEX = next((TESTS / "hosts" / "codex" / "real" / "sessions").rglob("rollout-*-bcb4-*.jsonl"))
Serve = Callable[..., ToolviewServer]


def _pi(url: str, root: Path) -> None:
    """The real pi, one scripted call and an answer, posted as thread ``pi-<its session>``."""
    turns = [Turn(calls=(Call("c1", "bash", {"command": "echo zebrafish"}),)), Turn(text="ok")]
    run = run_scripted(str(PI_BIN), root, turns, prompt="PI-SESSION: count the fish")
    thread = "pi-" + run.session_file.stem[-12:]
    body = b"\n".join(encode_observation(o) for o in run.observations)
    httpx.post(f"{url}/api/threads", json={"id": thread}, timeout=30).raise_for_status()
    posted = httpx.post(
        f"{url}/api/threads/{thread}/observations", content=body, headers=NDJSON, timeout=30
    )
    posted.raise_for_status()


def _capture(url: str) -> None:
    with toolview.capture(live=False, to=url) as rec:
        rec.message("user", "CAPTURE-RUN: look up the weather")
        rec.call("w1", "weather", {"city": "Oslo"})
        rec.result("w1", "cold")


@pytest.fixture
def index(served: Serve, tmp_path: Path) -> Iterator[str]:
    claude, codex = tmp_path / "claude" / "-work-proj", tmp_path / "codex"
    claude.mkdir(parents=True)
    codex.mkdir()
    shutil.copy(CLAUDE, claude / CLAUDE.name)
    shutil.copytree(CLAUDE.with_suffix(""), claude / CLAUDE.stem)  # its sub-agent
    for rollout in CODEX.parent.glob("rollout-*.jsonl"):
        shutil.copy(rollout, codex / rollout.name)
    server = served(
        "--db", str(tmp_path / "log.db"), "--watch", str(claude.parent), "--watch", str(codex)
    )
    _pi(server.url, tmp_path / "pi")
    _capture(server.url)
    yield server.url


def _rows(page: Page) -> list[dict[str, str]]:
    cells = "tr => [...tr.cells].map(td => td.textContent)"
    found = page.locator("#tv-index tbody tr[data-thread]").evaluate_all(f"rs => rs.map({cells})")
    keys = ["title", "agent", "model", "start", "duration", "calls", "failed", "tokens", "cost"]
    return [dict(zip([*keys, "status"], row, strict=True)) for row in found]


def test_every_agent_side_by_side_with_human_titles(index: str) -> None:
    seen: dict[str, object] = {}

    def scenario(page: Page) -> None:
        page.set_viewport_size(DESKTOP)  # type: ignore[arg-type]
        page.goto(index)
        holder = page.locator("#tv-index")
        expect(holder).to_have_attribute("data-connected", "true")
        page.wait_for_function("document.querySelectorAll('tr[data-thread]').length >= 4")
        seen["rows"] = _rows(page)
        page.get_by_label("Agent").select_option("pi")
        expect(page.locator("tr[data-thread]")).to_have_count(1)
        page.get_by_label("Agent").select_option("")
        page.get_by_role("button", name="Calls").click()  # most calls first
        calls = page.locator('th[data-key="calls"]')  # once the server's page is drawn
        expect(calls).to_have_attribute("aria-sort", "descending")
        seen["by_calls"] = [r["calls"] for r in _rows(page)]
        page.keyboard.press("j")
        seen["focused"] = page.evaluate("document.activeElement.closest('tr').dataset.thread")
        page.keyboard.press("/")
        page.keyboard.type("zebrafish")
        page.keyboard.press("Enter")
        hit = page.locator("#tv-found a").first
        expect(hit).to_have_text("PI-SESSION: count the fish")
        seen["href"] = hit.get_attribute("href")
        hit.click()
        page.wait_for_url("**/threads/pi-*")
        seen["target"] = page.evaluate(
            "location.hash && !!document.getElementById(decodeURIComponent(location.hash.slice(1)))"
        )

    in_browser(scenario)
    rows = seen["rows"]
    assert isinstance(rows, list)
    titles = {row["agent"]: row["title"] for row in rows}
    assert titles["claude"].startswith("MAIN-SESSION: tidy up")
    assert titles["codex"].startswith("Work through the scripted steps")
    assert titles["pi"] == "PI-SESSION: count the fish"
    assert titles["capture"] == "CAPTURE-RUN: look up the weather"
    assert all("<" not in row["title"] for row in rows)
    assert all(
        row["status"] in ("running", "waiting for input", "idle", "done", "failed") for row in rows
    )
    calls = [int(c.split("+")[0]) for c in seen["by_calls"]]  # type: ignore[union-attr]
    assert calls == sorted(calls, reverse=True) and calls[0] >= 11
    assert seen["focused"]
    assert "#" in str(seen["href"]) and seen["target"] is True


def test_axe_finds_nothing_serious_in_either_scheme_or_at_390px(index: str) -> None:
    found: dict[str, list[object]] = {}

    def scenario(page: Page) -> None:
        for size_name, size in (("desktop", DESKTOP), ("390px", PHONE)):
            for scheme in ("light", "dark"):
                page.set_viewport_size(size)  # type: ignore[arg-type]
                page.emulate_media(color_scheme=scheme)  # type: ignore[arg-type]
                page.goto(index)
                page.wait_for_function("document.querySelectorAll('tr[data-thread]').length >= 4")
                page.locator("#tv-find-input").fill("zebrafish")
                page.keyboard.press("Enter")
                expect(page.locator("#tv-found a")).not_to_have_count(0)
                found[f"{scheme} {size_name}"] = list(axe_violations(page))

    in_browser(scenario)
    assert found == {look: [] for look in found} and len(found) == 4
