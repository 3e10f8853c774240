"""Each subcommand imports only what it uses: pinned by what is imported, not by a timing.

A timing cannot be a test on a shared machine (bench/startup.py measures it);
the imports are what makes a command slow, and they do not depend on load:
``python -X importtime`` lists every module a run imports on stderr.
"""

from __future__ import annotations

import importlib.metadata
import subprocess
import sys
from argparse import ArgumentParser
from pathlib import Path

import pytest

from toolview.cli import COMMANDS, build_parser, main

TESTS = Path(__file__).parents[1]
EXAMPLE = str(TESTS.parent / "examples" / "thread.jsonl")
MCP_STORED = str(TESTS / "hosts" / "mcp" / "data" / "stored.jsonl")  # read without the SDK
PLAIN = str(TESTS / "cli" / "data" / "plain.jsonl")  # messages, a shell call, a call with no kind
RUNTIMES = (
    *("mcp", "redis", "starlette", "uvicorn", "sse_starlette", "ag_ui", "httpx", "anyio"),
    "google.protobuf",  # serve's /v1/traces, imported on its first export
    "genai_prices",  # contract.cost: imported on the first model turn priced (~0.3 s of CPU)
)
# pathlib (with urllib.parse and ipaddress) and shutil (with bz2 and lzma): ~17 ms of CPU
# that reading observations never needs (a path is a string until a session file is opened;
# argparse's width is found without shutil: cli.parsing); --version reads the installed
# metadata, which needs pathlib
STDLIB = ("pathlib", "shutil")
# the reader plug-ins are looked for (importlib.metadata scans every installed distribution)
# only when no built-in reader knows the input: never for observations or a stored MCP file
PLUGINS = "importlib.metadata"
# a kind's renderer is imported when the kind is first drawn (render.registry.Deferred): a
# plain session draws a shell call and no JSON, table, code, Markdown, link, image or to-do
UNDRAWN = ("code", "data", "image", "links", "markdown", "todo")
UNDRAWN_HELPERS = ("toolview.render.tables", "toolview.render.todo")


def undrawn(surface: str) -> tuple[str, ...]:
    """The kind modules of ``surface`` a plain session never needs, with their helpers."""
    return (*(f"toolview.render.{surface}.kinds.{kind}" for kind in UNDRAWN), *UNDRAWN_HELPERS)


LIGHT = {  # the command's words → what it must not import, beyond every runtime above
    ("--help",): ("msgspec", "rich", "toolview.contract", "toolview.render", *STDLIB),
    ("--version",): ("msgspec", "rich", "toolview.contract", "toolview.render"),  # reads metadata
    ("show", "--surface", "text", EXAMPLE): (
        "rich",
        "nh3",
        "toolview.render.terminal",
        *STDLIB,
        PLUGINS,
    ),
    ("show", "--surface", "markdown", EXAMPLE): (
        "rich",
        "toolview.render.terminal",
        *STDLIB,
        PLUGINS,
    ),
    ("check", EXAMPLE): ("rich", "toolview.render", "toolview.hosts", *STDLIB),
    ("show", "--surface", "text", MCP_STORED): ("rich", "pydantic", PLUGINS),
    ("show", "--surface", "text", PLAIN): ("rich", *undrawn("text"), *STDLIB),
    ("show", "--surface", "markdown", PLAIN): ("rich", *undrawn("markdown"), *STDLIB),
}


def imported(*words: str) -> set[str]:
    """Every module ``python -m toolview WORDS…`` imports (it must exit 0)."""
    result = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "toolview", *words],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [line for line in result.stderr.splitlines() if line.startswith("import time:")]
    return {line.rsplit("|", 1)[1].strip() for line in lines[1:]}  # the first is the header


def within(modules: set[str], package: str) -> list[str]:
    return sorted(m for m in modules if m == package or m.startswith(package + "."))


@pytest.mark.parametrize("words", list(LIGHT), ids=" ".join)
def test_a_command_imports_no_runtime_it_does_not_use(words: tuple[str, ...]) -> None:
    modules = imported(*words)
    assert "toolview.cli" in modules  # the probe sees the command's own imports
    if PLAIN in words:  # the one kind drawn is imported: the probe sees deferred renderers
        assert f"toolview.render.{words[2]}.kinds.shell" in modules
    for package in (*RUNTIMES, *LIGHT[words]):
        assert within(modules, package) == [], package


def test_version_is_the_installed_distribution_s(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"toolview {importlib.metadata.version('toolview')}\n"


def help_text(capsys: pytest.CaptureFixture[str], parser: ArgumentParser, *words: str) -> str:
    with pytest.raises(SystemExit):
        parser.parse_args([*words, "--help"])
    return capsys.readouterr().out


def test_the_help_reads_the_same_when_the_commands_are_not_imported(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``COMMANDS``' help lines are the ones each command's own parser declares."""
    assert help_text(capsys, build_parser([])) == help_text(capsys, build_parser())
    for name in COMMANDS:  # a command's own help: the one parser registered in full
        lazy = help_text(capsys, build_parser([name]), name)
        assert lazy == help_text(capsys, build_parser(), name) and name in lazy


BLOCKED = (  # a runtime made unimportable → a command that needs it
    ("mcp", ("mcp", "tools", "--", "server")),  # imported by the handler, on use
    ("uvicorn", ("serve", "--help")),  # imported with the command's module
)


@pytest.mark.parametrize(("runtime", "words"), BLOCKED, ids=[b[0] for b in BLOCKED])
def test_a_missing_runtime_breaks_its_own_command_only(
    runtime: str, words: tuple[str, ...]
) -> None:
    entry = (
        f"import sys; sys.modules[{runtime!r}] = None  # as if not installed\n"
        "from toolview.cli import main; sys.exit(main(sys.argv[1:]))"
    )

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", entry, *args], capture_output=True, text=True)

    broken = run(*words)
    assert broken.returncode == 2 and broken.stdout == ""
    assert f"toolview: {words[0]} cannot run in this installation:" in broken.stderr
    assert runtime in broken.stderr and "Traceback" not in broken.stderr
    listed = run("--help")
    assert listed.returncode == 0 and f" {words[0]} " in listed.stdout
    others = [name for name in ("check", "schema") if name != words[0]]
    for name in others:
        args = (name, EXAMPLE) if name == "check" else (name,)
        assert run(*args).returncode == 0, name


_COMPILED = """
import io, sys
from toolview.safety.patterns import LazyRegex
from toolview.safety.secrets import SECRET_PATTERNS
lazy = [p for p in SECRET_PATTERNS if isinstance(p.regex, LazyRegex)]
print(len(lazy), sum(p.regex.is_compiled for p in lazy), end=" ")
from toolview.cli import main
out, sys.stdout = sys.stdout, io.StringIO()
assert main(["show", "--surface", "text", sys.argv[1]]) == 0
sys.stdout = out
print(sum(p.regex.is_compiled for p in lazy))
"""


def test_show_compiles_only_the_secret_patterns_its_texts_may_hold() -> None:
    """The secret patterns are compiled when first matched (``safety.patterns.LazyRegex``):
    none at import, and a session with no secret compiles the few whose literal start its
    texts hold, not all ~50 (base: every pattern compiled at import). What is redacted is
    pinned by tests/safety."""
    done = subprocess.run(
        [sys.executable, "-c", _COMPILED, EXAMPLE], capture_output=True, text=True, check=True
    )
    lazy, at_import, after_show = map(int, done.stdout.split())
    assert lazy >= 40  # every pattern built by compile_pattern
    assert at_import == 0
    assert after_show <= 5, f"{after_show} of {lazy} patterns compiled by one small show"
