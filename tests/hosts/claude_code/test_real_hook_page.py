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

from .test_real_hook import hooked

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "server"))
from page_browser import in_browser  # tests/server's helper, on the path above

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(
    "body", [{"decision": "allow"}, {"decision": "deny", "message": "not today"}]
)
def test_a_click_on_the_live_page_answers_claude_codes_permission_request(
    tmp_path: Path, body: dict[str, str]
) -> None:
    statuses: list[int] = []

    def click(url: str, thread: str) -> None:
        def scenario(page: Page) -> None:
            page.goto(f"{url}/threads/{thread}")
            call = page.locator("article.tv-call[data-state='needs_input']")
            expect(call.locator("form.tv-decide")).to_be_visible()
            if "message" in body:
                call.get_by_label("Message (optional)").fill(body["message"])
            name = "Allow" if body["decision"] == "allow" else "Deny"
            with page.expect_response(lambda r: r.url.endswith("/decision")) as answer:
                call.get_by_role("button", name=name).click()
            statuses.append(answer.value.status)
            done = "Allowed by" if name == "Allow" else "Denied by"
            expect(page.locator(".tv-note", has_text=done)).to_have_count(1)  # the receipt

        in_browser(scenario)

    hooked(tmp_path, body, click)  # then: the command ran, or the model read "not today"
    assert statuses == [201]
