"""``show --surface html --page-size N --output DIR/NAME.html``: a thread in linked pages."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest
from html_markup import parse

from toolview.cli import main
from toolview.render.html import PAGE_CSP
from toolview.render.html.opening import OPEN, PENDING

PAGE_LINK = re.compile(r'<a class="tv-page-link" href="([^"]+)"')


def write_thread(path: Path, calls: int, *, failing: int | None = None) -> Path:
    lines = []
    for n in range(calls):
        lines.append({"kind": "tool-call", "toolCallId": f"c{n}", "toolName": "bash", "args": {}})
        lines.append(
            {
                "kind": "tool-result",
                "toolCallId": f"c{n}",
                "toolName": "bash",
                "text": f"output {n}",
                "complete": True,
                "isError": n == failing,
            }
        )
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def show(*words: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["show", *words])
    return code, out.getvalue(), err.getvalue()


def test_pages_split_the_thread_and_the_index_links_them_all(tmp_path: Path) -> None:
    source = write_thread(tmp_path / "thread.jsonl", 120, failing=7)
    out = tmp_path / "out"
    out.mkdir()
    code, stdout, _ = show(
        "--surface", "html", "--page-size", "50", "--output", str(out / "run.html"), str(source)
    )
    assert code == 0 and stdout == ""
    assert sorted(p.name for p in out.iterdir()) == ["run-2.html", "run-3.html", "run.html"]
    index, second, third = (
        (out / name).read_text(encoding="utf-8")
        for name in ("run.html", "run-2.html", "run-3.html")
    )
    assert "120 calls" in index and index.count('<footer class="tv-summary"') == 1
    assert "<footer" not in second + third
    assert PAGE_LINK.findall(index) == ["run.html", "run-2.html", "run-3.html", "run-2.html"] * 2
    assert PAGE_LINK.findall(second) == ["run.html", "run.html", "run-3.html"] * 2
    assert PAGE_LINK.findall(third) == ["run.html", "run-2.html"] * 2  # the last: no next
    for page, first, last in ((index, 0, 49), (second, 50, 99), (third, 100, 119)):
        ids = re.findall(r'<article class="tv-call" id="tv-call-c(\d+)"', page)
        assert ids == [str(n) for n in range(first, last + 1)]
        assert PAGE_CSP in page and page.endswith("</html>\n") and PENDING not in page
        assert parse(page).problems() == []
    # 120 calls: more than open_calls, so successes are collapsed; the failure stays open
    assert index.count(OPEN) == 1 and 'id="tv-call-c7" data-state="error"' in index


def test_a_short_thread_in_pages_keeps_its_successes_open(tmp_path: Path) -> None:
    source = write_thread(tmp_path / "t.jsonl", 5)
    code, _, _ = show(
        "--surface", "html", "--page-size", "2", "--output", str(tmp_path / "t.html"), str(source)
    )
    assert code == 0
    pages = sorted(tmp_path.glob("t*.html"))
    assert [p.name for p in pages] == ["t-2.html", "t-3.html", "t.html"]
    assert all(p.read_text(encoding="utf-8").count(OPEN) in (1, 2) for p in pages)


@pytest.mark.parametrize(
    ("words", "problem"),
    [
        (["--page-size", "5"], "add --surface html"),
        (["--surface", "html", "--page-size", "5"], "name the first with --output"),
        (["--surface", "html", "--page-size", "5", "--output", "x.txt"], "names an .html file"),
        (["--surface", "html", "--page-size", "0"], "must be at least 1 call"),
    ],
)
def test_pages_need_an_html_file_to_write(
    words: list[str], problem: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = write_thread(tmp_path / "t.jsonl", 1)
    with pytest.raises(SystemExit) if "0" in words else contextlib.nullcontext():
        assert main(["show", *words, str(source)]) == 2
    assert problem in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.jsonl"]


def test_a_missing_folder_is_said_before_anything_is_read(tmp_path: Path) -> None:
    source = write_thread(tmp_path / "t.jsonl", 1)
    target = tmp_path / "nowhere" / "t.html"
    code, _, err = show(
        "--surface", "html", "--page-size", "5", "--output", str(target), str(source)
    )
    assert code == 2 and "no such folder" in err


def test_output_alone_writes_any_surface_to_the_file(tmp_path: Path) -> None:
    source = write_thread(tmp_path / "t.jsonl", 2)
    code, stdout, _ = show("--surface", "text", "--output", str(tmp_path / "t.txt"), str(source))
    assert code == 0 and stdout == ""
    assert "output 1" in (tmp_path / "t.txt").read_text(encoding="utf-8")
