"""The REAL Claude Code CLI waits on its PermissionRequest hook; a click in a real Chromium answers.

As ``test_real_hook.py`` (a scripted model asks for a Bash call, ``toolview
hook claude-code`` publishes it to ``serve --watch`` and waits), but the
decision is a person's: the thread's live page in Chromium, the waiting call's
Allow, or Deny with a message typed into its form. Allow: the command runs.
Deny: the model gets the denial with the message.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .live import serve_watch
from .scripted_anthropic import ToolUse, Turn, serve
from .test_real_hook import CALL, COMMAND, _check, _result, _run, _settings, _waiting

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))
from page_browser import in_browser  # tests/server's helper, on the path above

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    "body", [{"decision": "allow"}, {"decision": "deny", "message": "not today"}]
)
def test_a_click_on_the_live_page_answers_claude_codes_permission_request(
    tmp_path: Path, body: dict[str, str]
) -> None:
    home = tmp_path / "home"
    (home / "workspace").mkdir(parents=True)
    (home / "tmp").mkdir()
    projects = home / ".claude" / "projects"
    projects.mkdir(parents=True)
    server = serve_watch(tmp_path, projects)
    try:
        _settings(home, server.url)
        calls = (ToolUse(CALL, "Bash", {"command": COMMAND}),)
        lanes = {"HOOKED": [Turn(text="writing", calls=calls), Turn(text="done")]}
        with serve(lanes) as (script_url, script):
            claude = _run(home, script_url)
            try:
                thread, _ = _waiting(server.url)
                statuses: list[int] = []

                def scenario(page: Page) -> None:
                    page.goto(f"{server.url}/threads/{thread}")
                    call = page.locator("article.tv-call[data-state='needs_input']")
                    expect(call.locator("form.tv-decide")).to_be_visible()
                    if "message" in body:
                        call.get_by_label("Message (optional)").fill(body["message"])
                    name = "Allow" if body["decision"] == "allow" else "Deny"
                    with page.expect_response(lambda r: r.url.endswith("/decision")) as answer:
                        call.get_by_role("button", name=name).click()
                    statuses.append(answer.value.status)
                    done = "Allowed by" if name == "Allow" else "Denied by"
                    receipt = page.locator(".tv-note", has_text=done)
                    expect(receipt).to_have_count(1)

                in_browser(scenario)
                assert statuses == [201]
                _result(claude)
            finally:
                if claude.poll() is None:
                    claude.kill()
            _check(home, script, body)  # ran, or the model told "not today" as an error
    finally:
        server.kill()
