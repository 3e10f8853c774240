"""Deterministic threads of N mixed tool calls: toolview observations and a Claude Code session.

Run: ``.venv/bin/python bench/mixed_thread.py N OUT_DIR`` writes
``OUT_DIR/thread-N.jsonl`` (what ``toolview show`` reads) and
``OUT_DIR/projects/-bench-app/session-N.jsonl`` (Claude Code's
``~/.claude/projects/<project>/<session>.jsonl``, what claude-code-log and
claude-code-transcripts read) holding the same calls, and prints their sizes.

The calls take turns by kind — shell (``Bash``), file (``Read`` of Python,
TypeScript, Go or Rust source), diff (``Edit``; toolview gets the unified
diff, Claude Code its ``structuredPatch`` and ``cat -n`` snippet) and json (an
MCP tool returning a JSON list) — each about 8 KB of output. As in a real
session: a user prompt every 8 calls, shell output with ANSI colours, about
one call in 25 failing (a failed test run, a file that does not exist), and
fake credentials planted in about one call in 20 (random bodies, generated
at run time: an AWS key id and secret, a ``ghp_`` token, an ``sk-ant-`` key).
The same N and seed give the same bytes. Used by ``bench/thread_scale.py``.
"""

from __future__ import annotations

import argparse
import json
import random
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

__all__ = ["Call", "calls", "write_claude_code", "write_toolview"]

SIZE = 8_000  # characters of output per call, about
PROMPT_EVERY = 8
PROJECT = "-bench-app"
CWD = "/bench/app"
_START = datetime(2026, 1, 15, 10, 0, tzinfo=UTC)
_ESC = "\x1b"
_ALNUM = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
_WORDS = (
    *("cache", "user", "session", "worker", "queue", "retry", "token", "index", "build"),
    *("parser", "render", "stream", "config", "limit", "window", "buffer", "record"),
    *("thread", "result", "event", "metric", "report", "batch"),
)


@dataclass
class Call:
    """One call, with what each format needs of it."""

    id: str
    kind: str  # shell | file | diff | json
    tool: str  # toolview's tool name
    args: dict[str, Any]
    text: str  # the result text toolview gets
    is_error: bool
    descriptor: dict[str, Any] | None
    cc_name: str  # Claude Code's tool name
    cc_input: dict[str, Any]
    cc_content: str  # the tool_result block's content
    cc_result: Any  # the record's toolUseResult
    prompt: str | None = None  # a user prompt before this call
    extra: dict[str, Any] = field(default_factory=dict)


def _alnum(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(_ALNUM) for _ in range(n))


def _secret_lines(rng: random.Random) -> list[str]:
    """Fake credentials in the shapes real ones take (never real keys)."""
    return [
        f"AWS_ACCESS_KEY_ID=AKIA{_alnum(rng, 16).upper()}",
        f"AWS_SECRET_ACCESS_KEY={_alnum(rng, 40)}",
        f"GITHUB_TOKEN=ghp_{_alnum(rng, 36)}",
        f"ANTHROPIC_API_KEY=sk-ant-api03-{_alnum(rng, 80)}",
    ]


def _ident(rng: random.Random) -> str:
    return "_".join(rng.sample(_WORDS, 2))


def _python(rng: random.Random, size: int) -> str:
    out = ['"""Module of the app."""', "", "from __future__ import annotations", ""]
    while sum(len(line) + 1 for line in out) < size:
        name, arg = _ident(rng), rng.choice(_WORDS)
        out += [
            "",
            f"def {name}({arg}: dict[str, int], limit: int = {rng.randint(1, 99)}) -> list[str]:",
            f'    """Return the {arg} keys under the limit, sorted."""',
            f"    found = [key for key, value in {arg}.items() if value < limit]",
            f"    if not found:  # nothing under {rng.randint(100, 999)}",
            f'        raise ValueError(f"no {arg} under {{limit}}")',
            "    return sorted(found)",
        ]
    return "\n".join(out) + "\n"


def _typescript(rng: random.Random, size: int) -> str:
    out = ['import { readFile } from "node:fs/promises";', ""]
    while sum(len(line) + 1 for line in out) < size:
        name, arg = _ident(rng), rng.choice(_WORDS)
        out += [
            "",
            f"export async function {name}({arg}: string[], limit = {rng.randint(1, 99)}) {{",
            f"  const found: string[] = {arg}.filter((item) => item.length < limit);",
            "  if (found.length === 0) {",
            f"    throw new Error(`no {arg} under ${{limit}}`);",
            "  }",
            f'  return (await readFile("{arg}.json", "utf8")).split("\\n").concat(found);',
            "}",
        ]
    return "\n".join(out) + "\n"


def _go(rng: random.Random, size: int) -> str:
    out = ["package app", "", 'import "fmt"', ""]
    while sum(len(line) + 1 for line in out) < size:
        name, arg = _ident(rng).title().replace("_", ""), rng.choice(_WORDS)
        out += [
            "",
            f"func {name}({arg} map[string]int, limit int) ([]string, error) {{",
            "\tvar found []string",
            f"\tfor key, value := range {arg} {{",
            "\t\tif value < limit {",
            "\t\t\tfound = append(found, key)",
            "\t\t}",
            "\t}",
            "\tif len(found) == 0 {",
            f'\t\treturn nil, fmt.Errorf("no {arg} under %d", limit)',
            "\t}",
            "\treturn found, nil",
            "}",
        ]
    return "\n".join(out) + "\n"


def _rust(rng: random.Random, size: int) -> str:
    out = ["use std::collections::HashMap;", ""]
    while sum(len(line) + 1 for line in out) < size:
        name, arg = _ident(rng), rng.choice(_WORDS)
        out += [
            "",
            f"pub fn {name}({arg}: &HashMap<String, u32>, limit: u32)",
            "    -> Result<Vec<String>, String> {",
            f"    let found: Vec<String> = {arg}.iter().filter(|(_, v)| **v < limit)",
            "        .map(|(k, _)| k.clone()).collect();",
            "    if found.is_empty() {",
            f'        return Err(format!("no {arg} under {{}}", limit));',
            "    }",
            "    Ok(found)",
            "}",
        ]
    return "\n".join(out) + "\n"


_LANGUAGES = (("python", "py", _python), ("typescript", "ts", _typescript))
_LANGUAGES += (("go", "go", _go), ("rust", "rs", _rust))


def _shell(rng: random.Random, number: int, secret: bool, fail: bool) -> tuple[str, str, int]:
    """(command, stdout, exit code): a coloured test run, or ``env`` with secrets."""
    if secret:
        lines = [f"{rng.choice(_WORDS).upper()}_{i}={_alnum(rng, 24)}" for i in range(90)]
        lines[40:40] = _secret_lines(rng)
        return "env | sort", "\n".join(lines)[:SIZE] + "\n", 0
    green, red, reset = f"{_ESC}[32m", f"{_ESC}[31m", f"{_ESC}[0m"
    lines = [f"{_ESC}[1m===== test session starts ====={reset}", f"collected {number % 400} items"]
    while sum(len(line) + 1 for line in lines) < SIZE - 200:
        test = f"tests/test_{rng.choice(_WORDS)}.py::test_{_ident(rng)}"
        lines.append(f"{test} {green}PASSED{reset} [{rng.randint(1, 99):3d}%]")
    if fail:
        lines.append(f"{red}FAILED{reset} tests/test_app.py::test_limit - AssertionError: 3 != 4")
        lines.append(f"{red}===== 1 failed, {len(lines)} passed in 4.21s ====={reset}")
    else:
        lines.append(f"{green}===== {len(lines)} passed in 4.21s ====={reset}")
    return "pytest -q", "\n".join(lines) + "\n", 1 if fail else 0


def _shell_call(rng: random.Random, i: int, secret: bool, fail: bool) -> Call:
    command, stdout, code = _shell(rng, i, secret, fail)
    props = {"command": command, "exitCode": code, "stdout": stdout, "stderr": ""}
    props["durationMs"] = rng.randint(5, 9000)
    content = f"Exit code {code}\n{stdout}" if fail else stdout
    result = {"stdout": stdout, "stderr": "", "interrupted": False, "isImage": False}
    return Call(
        id=f"toolu_{i:06d}",
        kind="shell",
        tool="bash",
        args={"command": command},
        text=stdout,
        is_error=fail,
        descriptor={"kind": "shell", "props": props},
        cc_name="Bash",
        cc_input={"command": command, "description": "Run the tests"},
        cc_content=content,
        cc_result=result,
    )


def _file_call(rng: random.Random, i: int, secret: bool, fail: bool) -> Call:
    language, ext, make = _LANGUAGES[(i // 4) % len(_LANGUAGES)]
    path = f"{CWD}/src/{_ident(rng)}.{ext}"
    content = make(rng, SIZE)
    if secret:  # a credential committed by mistake, as a comment
        content = content.replace("\n", f"\n// {_secret_lines(rng)[2]}\n", 1)
    if fail:
        missing = "File does not exist. Current working directory: " + CWD
        return Call(
            f"toolu_{i:06d}", "file", "read", {"path": path}, missing, True, None,
            "Read", {"file_path": path}, f"<tool_use_error>{missing}</tool_use_error>", missing,
        )  # fmt: skip
    lines = content.splitlines()
    cat_n = "\n".join(f"{n:6d}\t{line}" for n, line in enumerate(lines, 1))
    props = {"path": path, "content": content, "language": language, "startLine": 1}
    file_info = {"filePath": path, "content": content, "numLines": len(lines), "startLine": 1}
    file_info["totalLines"] = len(lines)
    return Call(
        f"toolu_{i:06d}", "file", "read", {"path": path}, content, False,
        {"kind": "file", "props": props}, "Read", {"file_path": path}, cat_n,
        {"type": "text", "file": file_info},
    )  # fmt: skip


def _diff_call(rng: random.Random, i: int, secret: bool, fail: bool) -> Call:
    path = f"{CWD}/src/{_ident(rng)}.py"
    old = _python(rng, SIZE // 2).splitlines()
    new = [line.replace("limit", "bound") if n % 3 == 0 else line for n, line in enumerate(old)]
    hunks, text = [], [f"--- a{path}", f"+++ b{path}"]
    for start in range(0, len(old), 12):
        body = [f" {old[start]}"]
        for o, n in zip(old[start + 1 : start + 6], new[start + 1 : start + 6], strict=True):
            body += [f" {o}"] if o == n else [f"-{o}", f"+{n}"]
        count = len([b for b in body if not b.startswith("+")])
        hunks.append({"oldStart": start + 1, "oldLines": count, "newStart": start + 1})
        hunks[-1].update(newLines=count, lines=body)
        text += [f"@@ -{start + 1},{count} +{start + 1},{count} @@", *body]
    diff = "\n".join(text) + "\n"
    snippet = "\n".join(f"{n:6d}→{line}" for n, line in enumerate(new[:60], 1))
    preamble = f"The file {path} has been updated. Here's the result of running `cat -n`"
    result = {"filePath": path, "oldString": old[1], "newString": new[1], "originalFile": None}
    result.update(structuredPatch=hunks, userModified=False, replaceAll=False)
    return Call(
        f"toolu_{i:06d}", "diff", "edit", {"path": path}, diff, False,
        {"kind": "diff", "props": {"path": path, "diff": diff}}, "Edit",
        {"file_path": path, "old_string": old[1], "new_string": new[1]},
        f"{preamble} on a snippet of the edited file:\n{snippet}", result,
    )  # fmt: skip


def _json_call(rng: random.Random, i: int, secret: bool, fail: bool) -> Call:
    items: list[dict[str, Any]] = []
    while len(json.dumps(items, indent=2)) < SIZE - 400:
        items.append(
            {
                "number": rng.randint(1, 9999),
                "title": " ".join(rng.sample(_WORDS, 5)),
                "state": rng.choice(("open", "closed")),
                "labels": rng.sample(_WORDS, 2),
                "comments": rng.randint(0, 40),
                "user": {"login": _ident(rng), "id": rng.randint(1, 10**7)},
            }
        )
    if secret:
        items[0]["body"] = f"CI fails with token ghp_{_alnum(rng, 36)} in the log"
    text = json.dumps(items, indent=2)
    name = "mcp__github__list_issues"
    block = [{"type": "text", "text": text}]
    return Call(
        f"toolu_{i:06d}", "json", "list_issues", {"repo": "acme/app", "state": "all"}, text,
        False, {"kind": "json", "props": {"value": items}}, name,
        {"owner": "acme", "repo": "app", "state": "all"}, text, block,
    )  # fmt: skip


_MAKERS = (_shell_call, _file_call, _diff_call, _json_call)


def calls(n: int, seed: int = 13) -> Iterator[Call]:
    """The first ``n`` calls of the mixed thread for ``seed``: the same every time."""
    rng = random.Random(seed)
    for i in range(n):
        make = _MAKERS[i % len(_MAKERS)]
        fail = make in (_shell_call, _file_call) and i % 50 in (0, 25, 1, 26)
        secret = i % 60 in (4, 9, 15)  # a shell, a file and a json call
        call = make(rng, i, secret and not fail, fail)
        if i % PROMPT_EVERY == 0:
            call.prompt = f"Step {i // PROMPT_EVERY + 1}: run the tests and tidy {_ident(rng)}."
        yield call


def _jsonl(stream: Any, record: dict[str, Any]) -> None:
    stream.write(json.dumps(record, ensure_ascii=False) + "\n")


def write_toolview(path: Path, n: int, seed: int = 13) -> None:
    """``n`` calls as toolview observations (JSON Lines), one run around them."""
    with path.open("w", encoding="utf-8") as out:
        _jsonl(out, {"kind": "run-started", "runId": "bench"})
        for call in calls(n, seed):
            if call.prompt:
                _jsonl(out, {"kind": "message", "role": "user", "text": call.prompt})
            _jsonl(out, {"kind": "tool-call", "toolCallId": call.id, "toolName": call.tool,
                         "args": call.args})  # fmt: skip
            result = {"kind": "tool-result", "toolCallId": call.id, "toolName": call.tool}
            result.update(text=call.text, complete=True, isError=call.is_error)
            if call.descriptor is not None:
                result["descriptor"] = call.descriptor
            _jsonl(out, result)
        _jsonl(out, {"kind": "run-ended", "runId": "bench", "outcome": "completed"})


class _Session:
    """Claude Code's record envelope: a parent chain of uuids, one session, times."""

    def __init__(self, out: Any, session: str) -> None:
        self.out, self.session, self.parent, self.count = out, session, None, 0

    def write(self, kind: str, message: dict[str, Any], **extra: Any) -> None:
        self.count += 1
        record_id = str(uuid.UUID(int=self.count, version=4))
        stamp = (_START + timedelta(seconds=self.count)).isoformat().replace("+00:00", "Z")
        record = {"parentUuid": self.parent, "isSidechain": False, "userType": "external"}
        record.update(cwd=CWD, sessionId=self.session, version="2.1.0", gitBranch="main")
        record.update(type=kind, message=message, uuid=record_id, timestamp=stamp, **extra)
        _jsonl(self.out, record)
        self.parent = record_id


def write_claude_code(path: Path, n: int, seed: int = 13) -> None:
    """The same ``n`` calls as a Claude Code session file (user/assistant records)."""
    usage = {"input_tokens": 12, "output_tokens": 80, "cache_read_input_tokens": 4000}
    with path.open("w", encoding="utf-8") as out:
        session = _Session(out, str(uuid.UUID(int=n, version=4)))
        for call in calls(n, seed):
            if call.prompt:
                session.write("user", {"role": "user", "content": call.prompt})
            use = {"type": "tool_use", "id": call.id, "name": call.cc_name, "input": call.cc_input}
            message = {"id": f"msg_{call.id}", "type": "message", "role": "assistant"}
            message.update(model="claude-sonnet-4-5", content=[use], stop_reason="tool_use")
            session.write("assistant", message | {"usage": usage}, requestId=f"req_{call.id}")
            block = {"type": "tool_result", "tool_use_id": call.id, "content": call.cc_content}
            block["is_error"] = call.is_error
            reply = {"role": "user", "content": [block]}
            session.write("user", reply, toolUseResult=call.cc_result)


def write_both(
    n: int, out_dir: Path, seed: int = 13, claude_code: bool = True
) -> tuple[Path, Path]:
    """Write both files for ``n`` calls under ``out_dir``: (toolview path, Claude Code path).

    ``claude_code=False`` skips the session file (its path is still returned).
    """
    project = out_dir / "projects" / PROJECT
    project.mkdir(parents=True, exist_ok=True)
    toolview_path, session_path = out_dir / f"thread-{n}.jsonl", project / f"session-{n}.jsonl"
    write_toolview(toolview_path, n, seed)
    if claude_code:
        write_claude_code(session_path, n, seed)
    return toolview_path, session_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("calls", type=int)
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("--seed", type=int, default=13)
    args = parser.parse_args()
    for path in write_both(args.calls, args.out_dir, args.seed):
        print(f"{path}: {path.stat().st_size / 1e6:,.1f} MB")


if __name__ == "__main__":
    main()
