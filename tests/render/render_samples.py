"""Sample threads shared by the render tests: one per kind and per branch."""

from __future__ import annotations

import signal
from typing import Any

import msgspec

from corpora.wide_table import WIDE_TABLE
from toolview.contract import (
    Descriptor,
    Message,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Truncation,
    Usage,
)
from toolview.contract.interrupted import interrupted_result
from toolview.contract.thread import Thread

PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
    "AAAABJRU5ErkJggg=="
)


def call_thread(
    *,
    tool: str = "tool",
    args: dict[str, Any] | None = None,
    text: str = "",
    kind: str | None = None,
    props: dict[str, Any] | None = None,
    truncated: Truncation | None = None,
    is_error: bool = False,
    complete: bool = True,
    result: bool = True,
    run_ended: bool = True,
) -> Thread:
    """A one-call thread inside a run (ended unless ``run_ended`` is false)."""
    observations: list[Any] = [RunStarted("r1"), ToolCall("c1", tool, args or {})]
    if result:
        descriptor: Any = None
        if kind is not None:
            descriptor = Descriptor(kind, props or {})
            if truncated is not None:
                descriptor = Descriptor(kind, props or {}, truncated)
        observations.append(
            ToolResult("c1", tool, text, complete, is_error, descriptor)
            if descriptor is not None
            else ToolResult("c1", tool, text, complete, is_error)
        )
    if run_ended:
        observations.append(RunEnded("r1", "completed"))
    return Thread.from_observations(observations)


BLOCKS: dict[str, Any] = {
    "blocks": [
        {"type": "text", "text": "Here is the image:"},
        {"type": "image", "mimeType": "image/png", "size": 4096, "data": PNG},
        {"type": "audio", "mimeType": "audio/wav", "size": 12000},
        {"type": "resource_link", "uri": "https://example.com/r", "name": "r", "title": "R"},
        {"type": "resource_link", "uri": "file:///etc/hosts", "name": "hosts"},
        {"type": "resource", "uri": "file:///a.txt", "mimeType": "text/plain", "text": "a\nb"},
        {"type": "resource", "uri": "file:///b.bin", "blobSize": 4096},
        {"type": "unknown", "originalType": "hologram", "json": {"x": 1}, "reason": "unknown type"},
        {"type": "ui", "resourceUri": "ui://widget/1", "source": "meta.ui"},
        {"type": "structured", "view": "table", "props": {"columns": ["a"], "rows": [[1]]}},
        {"type": "structured", "view": "json", "props": {"value": [1]}},
        {"type": "structured", "view": "table", "props": {"columns": ["a"], "rows": [[1, 2]]}},
    ],
    "notes": ["1 block for the assistant only"],
    "progress": {"progress": 3, "total": 10, "message": "copying"},
}

# Every status, hostile text in each: Markdown, markup, a line break, a secret, a bidi control.
TODO: dict[str, Any] = {
    "items": [
        {"content": "Read the *spec* <b>now</b>", "status": "completed"},
        {"content": "Write tests", "status": "in_progress", "activeForm": "Writing tests"},
        {"content": "Ship | it\n- [x] fake item", "status": "pending"},
        {
            "content": "Call with ghp_0123456789abcdefghijklmnopqrstuvwxyzAB \u202eevil",
            "status": "cancelled",
        },
        {"content": "Fix the flaky test", "status": "in_progress"},
    ]
}


def _under(parent: str, observation: Any, at: str | None = None) -> Any:
    changes: dict[str, Any] = {"parent_call_id": parent}
    if at is not None:
        changes["at"] = at
    return msgspec.structs.replace(observation, **changes)


def subagent_observations() -> list[Any]:
    """An Agent call whose sub-agent runs 3 calls — one fails, one runs a sub-agent of its
    own — with its prompt (a secret in it), usage and times; then a mark naming no call."""
    prompt = "Find the config file.\nThe token is ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
    args = {"description": "Find config", "prompt": prompt, "subagent_type": "Explore"}
    return [
        RunStarted("r1"),
        ToolCall("agent-1", "Agent", args),
        _under("agent-1", Message("user", prompt), "2026-12-01T10:00:00Z"),
        _under("agent-1", ToolCall("s1", "Bash", {"command": "ls"}), "2026-12-01T10:00:01.5Z"),
        _under("agent-1", ToolResult("s1", "Bash", "app.toml\n", True, False)),
        _under("agent-1", ToolCall("s2", "Read", {"path": "/etc/app.toml"})),
        ToolResult("s2", "Read", "EACCES: permission denied", True, True),
        _under("agent-1", ToolCall("s3", "Task", {"prompt": "Check the defaults"})),
        _under("s3", ToolCall("g1", "Grep", {"pattern": "port"})),
        _under("s3", ToolResult("g1", "Grep", "app.toml:3:port = 80", True, False)),
        _under("agent-1", ToolResult("s3", "Task", "port 80 by default", True, False)),
        _under("agent-1", Usage(model="claude", input_tokens=1200, output_tokens=300)),
        _under("agent-1", Message("assistant", "Found it."), "2026-12-01T10:00:42.25Z"),
        ToolResult("agent-1", "Agent", "The config is app.toml (port 80).", True, False),
        _under("ghost", ToolCall("u1", "Bash", {"command": "pwd"})),
        _under("ghost", ToolResult("u1", "Bash", "/work", True, False)),
        RunEnded("r1", "completed"),
    ]


def subagent_thread() -> Thread:
    return Thread.from_observations(subagent_observations())


def refused_thread() -> Thread:
    return Thread.from_observations(
        [
            RunStarted("r1"),
            ToolCall("c1", "bash", {"command": "rm -rf /"}),
            ToolRefused("c1", "bash", "destructive command", "policy"),
            RunEnded("r1", "completed"),
        ]
    )


def refused_bare_thread() -> Thread:
    """A refusal with no guard name, no call seen, and a multi-line reason."""
    return Thread.from_observations(
        [ToolRefused("c1", "write", "outside the workspace:\n  /etc/passwd")]
    )


def refused_long_thread() -> Thread:
    """A refusal wider than 80 columns: what was refused must still show, wrapped."""
    command = (
        "rm -rf /home/alice/projects/toolview/build /home/alice/.cache/pip"
        " && git push --force origin main"
    )
    return Thread.from_observations(
        [
            RunStarted("r1"),
            ToolCall("c1", "bash", {"command": command}),
            ToolRefused(
                "c1",
                "bash",
                "destructive command: deletes files outside the workspace"
                " and force-pushes to a protected branch",
                "rules.toml",
            ),
            RunEnded("r1", "completed"),
        ]
    )


def summary_thread() -> Thread:
    """Every way a call can end, to count: the summary line at the end."""
    ok = ToolResult("c1", "read", "fine", True, False)
    return Thread.from_observations(
        [
            RunStarted("r1"),
            ToolCall("c1", "read", {"path": "a"}),
            ok,
            ToolCall("c2", "read", {"path": "b"}),
            ToolResult("c2", "read", "fine", True, False),
            ToolCall("c3", "bash", {"command": "false"}),
            ToolResult("c3", "bash", "boom", True, True),
            ToolCall("c4", "bash", {"command": "rm -rf /"}),
            ToolRefused("c4", "bash", "destructive", "rules.toml"),
            ToolCall("c5", "fetch", {}),
            ToolResult(
                "c5",
                "fetch",
                '{"schemaVersion": "1.0", "tool": "fetch", "status": "not_found"}',
                True,
                False,
            ),
            ToolCall("c6", "sleep", {}),
            RunEnded("r1", "completed"),
            RunStarted("r2"),
            ToolCall("c7", "watch", {}),
            Message("assistant", "Still watching."),
        ]
    )


def long_shell_thread() -> Thread:
    """The tool kept 1,000 of 10,000 lines; the surface shows 100 of those: one line says both."""
    stdout = "".join(f"{n}\n" for n in range(9001, 10001))
    return call_thread(
        tool="bash",
        text=stdout,
        kind="shell",
        props={"command": "seq 10000", "exitCode": 0, "stdout": stdout, "stderr": ""},
        truncated=Truncation(1000, 10000, "lines"),
    )


def long_file_thread() -> Thread:
    """A head window and the tool's own cut after it: one line."""
    content = "".join(f"line {n}\n" for n in range(1, 201))
    return call_thread(
        tool="read",
        text=content,
        kind="file",
        props={"path": "big.txt", "content": content},
        truncated=Truncation(200, 5000, "lines"),
    )


E = "\x1b"
SGR_FAMILIES = (
    # the 16 colours, foreground and background, normal and bright
    "".join(f"{E}[{30 + n}m{n}" for n in range(8)) + f"{E}[0m "
    + "".join(f"{E}[{90 + n}m{8 + n}" for n in range(8)) + f"{E}[39m\n"
    + "".join(f"{E}[{40 + n}m{n}" for n in range(8)) + f"{E}[49m "
    + "".join(f"{E}[{100 + n}m{8 + n}" for n in range(8)) + f"{E}[m\n"
    # 256 colours (; and : forms), 24-bit (drawn as the nearest of 256)
    + f"{E}[38;5;208morange{E}[0m {E}[48:5:21mblue bg{E}[0m "
    + f"{E}[38;2;255;105;180mpink{E}[0m {E}[48;2;0;0;0;38;2;250;250;250mwhite on black{E}[0m\n"
    # attributes, and their own resets
    + f"{E}[1mbold{E}[22m {E}[2mdim{E}[22m {E}[3mitalic{E}[23m {E}[4munderline{E}[24m "
    + f"{E}[7minverse{E}[27m {E}[1;31;7mall{E}[0m plain\n"
    # still neutralized: a title, a hyperlink, cursor movement, a screen clear
    + f"{E}]0;pwned{E}\\{E}]8;;https://evil.example{E}\\link{E}]8;;{E}\\ {E}[2A{E}[2Jend\n"
)  # fmt: skip
PROGRESS = (
    "Downloading   0%\rDownloading  40%\rDownloading 100%\n"  # \r: the last frame
    "tqdm  10%|#         |\r\x1b[Ktqdm 100%|##########|\n"  # \r + erase to the line's end
    "spinner |\b/\b-\b\\\bdone\n"  # \b: back one, the next character overwrites
    "typo\b\b\bext, CRLF kept\r\n"
    "\x1b[32mok\x1b[0m   1/3\r\x1b[32mok\x1b[0m   3/3\n"  # colour survives a rewrite
)


def sgr_thread() -> Thread:
    """Command output with every SGR family kept, and the sequences that stay neutralized."""
    return call_thread(
        tool="bash",
        text=SGR_FAMILIES,
        kind="shell",
        props={
            "command": "ls --color=always",
            "exitCode": 1,
            "stdout": SGR_FAMILIES,
            "stderr": f"{E}[1;31merror:{E}[0m bad\n",
        },
    )


def progress_thread() -> Thread:
    """Carriage returns and backspaces applied: each line shows its last frame."""
    return call_thread(
        tool="bash",
        text=PROGRESS,
        kind="shell",
        props={"command": "make", "exitCode": 0, "stdout": PROGRESS, "stderr": "1%\r100%\n"},
    )


def interrupted_thread() -> Thread:
    """Ctrl-C while a command ran: its last partial output is kept, and the reason said."""
    command = "sh -c 'echo tick1; echo tick2; sleep 30'"
    props = {"command": command, "exitCode": None, "stdout": "tick1\ntick2\n", "stderr": ""}
    return Thread.from_observations(
        [
            RunStarted("r1"),
            ToolCall("c1", "shell", {"command": command}),
            ToolResult("c1", "shell", "tick1\ntick2\n", False, False, Descriptor("shell", props)),
            RunEnded("r1", "aborted", "interrupted by SIGINT"),
        ]
    )


def interrupted_final_thread() -> Thread:
    """What ``toolview run`` records on Ctrl-C: the output so far as the final result."""
    command = "sh -c 'echo tick1; echo tick2; sleep 30'"
    props = {"command": command, "exitCode": None, "stdout": "tick1\ntick2\n", "stderr": ""}
    partial = ToolResult("c1", "shell", "tick1\ntick2\n", False, False, Descriptor("shell", props))
    return Thread.from_observations(
        [
            RunStarted("r1"),
            ToolCall("c1", "shell", {"command": command}),
            partial,
            interrupted_result(partial, partial, signal.SIGINT),
            RunEnded("r1", "aborted", "interrupted by SIGINT"),
        ]
    )


def run_reason_thread() -> Thread:
    """A run that ended in error, saying why (hostile: a password, an OSC title)."""
    reason = "ConnectionError: POST https://bot:hunter2@api.example.com failed\x1b]0;pwned\x07"
    return Thread.from_observations(
        [
            RunStarted("r1"),
            ToolCall("c1", "read", {"path": "a"}),
            ToolResult("c1", "read", "fine", True, False),
            ToolCall("c2", "fetch", {"url": "https://api.example.com"}),
            RunEnded("r1", "error", reason),
        ]
    )


def failed_command_thread() -> Thread:
    """A failed command as ``toolview run`` records it: tool ``shell``, args ``{command}``.

    Exit code 1, stderr apart from stdout, a duration, and the tool's own cut
    (the last 200 of 4,200 lines): the error frame must keep all of it.
    """
    stdout = "".join(f"tests/test_{n}.py ....\n" for n in range(1, 4)) + "1 failed, 12 passed\n"
    stderr = "warning: slow test\nerror: 1 test failed\n"
    return call_thread(
        tool="shell",
        args={"command": "pytest -q"},
        text=stdout + stderr,
        kind="shell",
        props={
            "command": "pytest -q",
            "exitCode": 1,
            "stdout": stdout,
            "stderr": stderr,
            "durationMs": 3400,
        },
        truncated=Truncation(200, 4200, "lines"),
        is_error=True,
    )


def conversation() -> Thread:
    return Thread.from_observations(
        [Message("user", "Hello *there*"), Message("assistant", "Hi.\nTwo lines.")]
    )


T0, T1, T2, T3 = (f"2026-12-01T23:{m}Z" for m in ("44:20.000", "44:22.500", "50:00", "56:23"))
TIMED_OBSERVATIONS = [
    Message("user", "Fix the tests", at=T0),
    Message("thinking", "The failure is in\nthe parser.", at=T0),
    Usage(model="claude-sonnet", input_tokens=1200, output_tokens=80, cache_read_tokens=900, at=T0),
    ToolCall("c1", "read", {"path": "parser.py"}, at=T0),
    ToolResult("c1", "read", "def parse(): ...", complete=True, is_error=False, at=T1),
    ToolCall("c2", "shell", {"command": "pytest -q"}, at=T1),
    ToolResult(
        "c2",
        "shell",
        "1 passed",
        complete=True,
        is_error=False,
        descriptor=Descriptor(
            "shell",
            {"command": "pytest -q", "exitCode": 0, "stdout": "1 passed", "stderr": ""}
            | {"durationMs": 850},  # the tool's own measure wins over the at's
        ),
        at=T2,
    ),
    Usage(model="claude-sonnet", input_tokens=300, output_tokens=20, cache_write_tokens=64, at=T2),
    Usage(model="claude-haiku", input_tokens=50, output_tokens=5),
    Message("assistant", "Fixed.", at=T3),
]


def timed_thread() -> Thread:
    """Times and usage: a duration from the at's, a span of 12 min 3 s, tokens per model."""
    return Thread.from_observations(TIMED_OBSERVATIONS)


CASES: dict[str, Any] = {
    "timed": timed_thread,
    "shell_sgr": sgr_thread,
    "shell_progress": progress_thread,
    "text_progress": lambda: call_thread(tool="fetch", text=PROGRESS),
    "pending_progress": lambda: call_thread(
        tool="bash", text=PROGRESS + "\x1b[33mstep 1\rstep 2", complete=False, run_ended=False
    ),
    "shell": lambda: call_thread(
        tool="bash",
        args={"command": "ls"},
        text="a\nb\n",
        kind="shell",
        props={
            "command": "ls",
            "exitCode": 0,
            "stdout": "a\nb\n",
            "stderr": "",
            "durationMs": 1500,
        },
    ),
    "shell_failed": lambda: call_thread(
        tool="bash",
        text="oops",
        kind="shell",
        props={"command": "false", "exitCode": None, "stdout": "", "stderr": "oops\n"},
    ),
    "file": lambda: call_thread(
        tool="read",
        text="x = 1\n",
        kind="file",
        props={"path": "a.py", "content": "x = 1\ny = [x]\n", "language": "python", "startLine": 9},
    ),
    "diff": lambda: call_thread(
        tool="edit",
        text="diff",
        kind="diff",
        props={"path": "a.py", "diff": "--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"},
    ),
    "json": lambda: call_thread(
        tool="cfg",
        text="{}",
        kind="json",
        props={"value": {"name": "x", "list": list(range(3)), "nested": {"deep": [True, None]}}},
    ),
    "table": lambda: call_thread(
        tool="sql",
        text="rows",
        kind="table",
        props={"columns": ["name", "size"], "rows": [["a|b", 1], ["c", {"k": 2}]]},
    ),
    "table_wide": lambda: call_thread(
        tool="sql",
        args={"query": "select * from users"},
        text="3 rows",
        kind="table",
        props=WIDE_TABLE,
    ),
    "links": lambda: call_thread(
        tool="search",
        text="links",
        kind="links",
        props={
            "links": [
                {
                    "title": "Example",
                    "url": "https://example.com/a?q=1&b=(2)",
                    "snippet": "An *example*.",
                },
                {"title": "Bad", "url": "javascript:alert(1)"},
            ]
        },
    ),
    "image": lambda: call_thread(
        tool="shot",
        text="[image]",
        kind="image",
        props={"mimeType": "image/png", "data": PNG, "alt": "a pixel"},
    ),
    "markdown": lambda: call_thread(
        tool="notes",
        text="# T",
        kind="markdown",
        props={"markdown": "# Title\n\n* one\n* **two**\n\n<b>raw</b>\n"},
    ),
    "envelope": lambda: call_thread(
        tool="lookup",
        text='{"schemaVersion": "1.2", "tool": "lookup", "status": "ok", "summary": "2 found",'
        ' "data": [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}]}',
    ),
    "envelope_error": lambda: call_thread(
        tool="lookup",
        is_error=True,
        text='{"schemaVersion": "1.0", "tool": "lookup", "status": "denied",'
        ' "summary": "not allowed", "errorCode": "E_DENIED"}',
    ),
    "unknown_kind": lambda: call_thread(
        tool="widget", text="widget text", kind="acme.widget", props={"spin": 3}
    ),
    "invalid_props": lambda: call_thread(
        tool="bash",
        text="plain text",
        kind="shell",
        props={"command": "ls", "exitCode": "0", "stdout": "", "stderr": ""},
    ),
    "error": lambda: call_thread(
        tool="bash",
        is_error=True,
        text='Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad',
        kind="shell",
        props={"command": "x", "exitCode": 1, "stdout": "", "stderr": ""},
    ),
    "error_failed_command": failed_command_thread,
    "error_text_cut": lambda: call_thread(
        tool="pi",
        is_error=True,
        text='Traceback (most recent call last):\n  File "x.py", line 1\nValueError: bad',
        kind="pi.tool.bash",
        truncated=Truncation(3, 4003, "lines"),
    ),
    "truncated": lambda: call_thread(
        tool="read",
        text="l1\nl2",
        kind="file",
        props={"path": "big.txt", "content": "l1\nl2\n"},
        truncated=Truncation(2, 4002, "lines"),
    ),
    "pending": lambda: call_thread(tool="bash", text="so far", complete=False, run_ended=False),
    "pending_silent": lambda: call_thread(tool="bash", result=False, run_ended=False),
    "aborted": lambda: call_thread(tool="bash", result=False),
    "refused": refused_thread,
    "refused_bare": refused_bare_thread,
    "refused_long": refused_long_thread,
    "summary": summary_thread,
    "truncated_shell": long_shell_thread,
    "truncated_file": long_file_thread,
    "empty": lambda: call_thread(tool="touch", text=""),
    "plain": lambda: call_thread(tool="echo", args={"text": "hi"}, text="hi\n"),
    "conversation": conversation,
    "interrupted": interrupted_thread,
    "interrupted_final": interrupted_final_thread,
    "run_reason": run_reason_thread,
    "blocks": lambda: call_thread(tool="mcp", text="blocks as text", kind="blocks", props=BLOCKS),
    "subagent": subagent_thread,
    "todo": lambda: call_thread(tool="TodoWrite", text="plan", kind="todo", props=TODO),
    "todo_empty": lambda: call_thread(
        tool="TodoWrite", text="plan", kind="todo", props={"items": []}
    ),
}
