"""Every call a native ``<details>``: which open, what the summary line says, what it never says."""

from __future__ import annotations

import re
from dataclasses import replace

from html_hostile import hostile_thread
from html_markup import parse

from corpora import html_injection
from toolview.contract import Descriptor, Message, ToolCall, ToolRefused, ToolResult
from toolview.contract.thread import Thread
from toolview.render import html
from toolview.render.html import render_call_html, render_page, render_thread_html
from toolview.render.html.opening import OPEN, PENDING, OpeningWriter, successes_open
from toolview.render.limits import DEFAULT_LIMITS
from toolview.render.stream import ThreadStream

AT = "2026-05-01T12:00:00.000Z"
SUMMARY = re.compile(r'<details class="tv-call-details"( open)?><summary')


def ok(n: int, text: str = "fine") -> list[object]:
    return [
        ToolCall(f"ok{n}", "bash", {"n": n}, at=AT),
        ToolResult(f"ok{n}", "bash", text, True, False),
    ]


def mixed(successes: int) -> list[object]:
    """One call of each state that opens by default, then ``successes`` successes."""
    observations: list[object] = [
        ToolCall("bad", "bash", {}),
        ToolResult("bad", "bash", "boom", True, True),
        ToolCall("run", "bash", {}),
        ToolCall("no", "bash", {}),
        ToolRefused("no", "bash", "not allowed", guard="policy"),
    ]
    for n in range(successes):
        observations += ok(n)
    return observations


def opened(markup: str) -> dict[str, bool]:
    """Each call's id → whether its ``<details>`` is open (receipts have none)."""
    found = re.findall(r'<article class="tv-call" id="([^"]+)"[^>]*>.*?(<details[^>]*>)', markup)
    return {call_id: tag == OPEN for call_id, tag in found}


def test_in_a_short_thread_every_call_is_open() -> None:
    page = render_page(Thread.from_observations(mixed(DEFAULT_LIMITS.open_calls - 3)))
    states = opened(page)
    assert len(states) == DEFAULT_LIMITS.open_calls - 1 and all(states.values())
    assert PENDING not in page


def test_in_a_long_thread_only_successes_collapse() -> None:
    page = render_page(Thread.from_observations(mixed(DEFAULT_LIMITS.open_calls)))
    states = opened(page)
    assert states["tv-call-bad"] and states["tv-call-run"]  # failed and running: open
    assert not any(open_ for call_id, open_ in states.items() if call_id.startswith("tv-call-ok"))
    assert 'id="tv-call-no"' in page and 'data-status="denied"' in page  # the receipt stays
    assert PENDING not in page


def test_the_threshold_is_a_limit() -> None:
    thread = Thread.from_observations(mixed(5))
    page = render_page(thread, limits=replace(DEFAULT_LIMITS, open_calls=3))
    assert not opened(page)["tv-call-ok0"]
    assert successes_open(50) and not successes_open(51)
    assert successes_open(3, replace(DEFAULT_LIMITS, open_calls=3))


def test_a_stream_writes_what_the_page_writes_and_holds_no_more_than_it_must() -> None:
    observations: list[object] = [
        ToolCall("bad", "bash", {}),
        ToolResult("bad", "bash", "x", True, True),
    ]
    for n in range(DEFAULT_LIMITS.open_calls):
        observations += ok(n)  # 51 calls in all
    pieces: list[str] = []
    stream = ThreadStream(html.stream_shape(title="toolview"), pieces.append)
    stream.add(observations[0])
    stream.add(observations[1])
    assert 'id="tv-call-bad"' in "".join(pieces)  # a failure goes out at once
    for observation in observations[2:-2]:
        stream.add(observation)  # type: ignore[arg-type]
    held = "".join(pieces)
    assert 'id="tv-call-ok0"' not in held  # successes wait for the thread's length
    for observation in observations[-2:]:
        stream.add(observation)  # type: ignore[arg-type]
    assert 'id="tv-call-ok0"' in "".join(pieces)  # one call past the threshold: decided
    stream.close()
    whole = render_page(Thread.from_observations(observations))
    assert "".join(pieces) == whole


def test_a_short_stream_is_decided_at_its_end() -> None:
    pieces: list[str] = []
    stream = ThreadStream(html.stream_shape(title=None), pieces.append)
    for observation in ok(1):
        stream.add(observation)  # type: ignore[arg-type]
    stream.close()
    assert "".join(pieces) == render_thread_html(Thread.from_observations(ok(1)))
    assert OPEN in "".join(pieces)


def test_the_writer_never_leaves_a_pending_tag() -> None:
    out: list[str] = []
    writer = OpeningWriter(out.append)
    writer(PENDING)
    assert out == []
    writer.flush()
    assert out == [OPEN]


def test_a_live_page_passes_its_decision() -> None:
    thread = Thread.from_observations(ok(1))
    (entry,) = thread.entries
    closed = render_call_html(entry, thread, open_successes=False)  # type: ignore[arg-type]
    assert '<details class="tv-call-details"><summary' in closed
    assert OPEN in render_call_html(entry, thread)  # type: ignore[arg-type]


def test_the_summary_is_the_heading_and_the_permalink_sits_beside_it() -> None:
    markup = render_thread_html(Thread.from_observations(ok(1, "first line\nsecond")))
    article = markup[markup.index("<article") : markup.index("</article>")]
    assert SUMMARY.search(article)
    summary = article[article.index("<summary") : article.index("</summary>")]
    assert summary.count("<h3") == 1 and "tv-permalink" not in summary
    assert '<span class="tv-gist">first line</span>' in summary
    assert (
        f'<time class="tv-meta tv-time" datetime="{AT}">2026-05-01 12:00:00 UTC</time>' in summary
    )
    assert '<a class="tv-permalink" href="#tv-call-ok1"' in article
    assert 'data-tool="bash" data-kind=""' in article


def test_the_gist_names_the_command_or_the_path() -> None:
    shell = {"command": "make test\nmake lint", "exitCode": 0, "stdout": "ok", "stderr": ""}
    file = {"path": "src/app.py", "content": "print(1)\n"}
    thread = Thread.from_observations(
        [
            ToolCall("s", "bash", {}),
            ToolResult("s", "bash", "ok", True, False, descriptor=Descriptor("shell", shell)),
            ToolCall("f", "read", {"path": "src/app.py"}),
            ToolResult("f", "read", "print(1)", True, False, descriptor=Descriptor("file", file)),
            ToolCall("a", "search", {"query": "where is main"}),
            ToolResult("a", "search", '{"hits": 3}', True, False),
            ToolCall("j", "lookup", {"id": 7}),
            ToolResult("j", "lookup", '{"password": "hunter2"}', True, False),
        ]
    )
    gists = re.findall(r'<span class="tv-gist">([^<]*)</span>', render_thread_html(thread))
    assert gists == ["make test", "src/app.py", "where is main", "{ &quot;id&quot;: 7 }"]


def test_a_secret_never_reaches_the_gist() -> None:
    key = "AKIAIOSFODNN7EXAMPLE"
    thread = Thread.from_observations(
        [ToolCall("c", "bash", {"command": f"aws --key {key} s3 ls"}), *ok(2, f"key {key}")]
    )
    markup = render_thread_html(thread)
    assert key not in markup and markup.count('<span class="tv-gist">') == 2


def test_nothing_in_a_fragment_announces_itself() -> None:
    markup = render_thread_html(hostile_thread(html_injection.PAYLOADS[:40]))
    assert 'role="status"' not in markup and "aria-live" not in markup
    assert parse(markup).problems() == []


def test_hostile_names_stay_inert_in_the_data_attributes() -> None:
    name = '"><img src=x onerror=alert(1)> \x1b[31m'
    thread = Thread.from_observations(
        [ToolCall("c", name, {}), ToolResult("c", name, "x", True, False), Message("user", "hi")]
    )
    markup = render_thread_html(thread)
    assert "<img" not in markup and "\x1b" not in markup
    (tool,) = re.findall(r'data-tool="([^"]*)"', markup)
    assert "&quot;&gt;&lt;img" in tool
