"""Stack traces are cut to the exception line, with a visible marker."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.safety import cut_stack_trace

PYTHON = """running tests
Traceback (most recent call last):
  File "/srv/app/main.py", line 10, in <module>
    main()
  File "/srv/app/main.py", line 6, in main
    raise ValueError("bad")
    ^^^^^^^^^^^^^^^^^^^^^^^
ValueError: bad
exit 1"""

CHAINED = """Traceback (most recent call last):
  File "a.py", line 2, in <module>
    d["k"]
KeyError: 'k'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "a.py", line 4, in <module>
    raise RuntimeError("lookup failed")
RuntimeError: lookup failed"""

NODE = """TypeError: x is not a function
    at Object.<anonymous> (/app/index.js:3:5)
    at Module._compile (node:internal/modules/cjs/loader:1256:14)
    at async Promise.all (index 0)
Node.js v20.11.0"""

JAVA = """Exception in thread "main" java.lang.IllegalStateException: boom
\tat com.example.App.run(App.java:42)
\tat com.example.App.main(App.java:10)
Caused by: java.io.IOException: disk
\tat com.example.Io.read(Io.java:7)
\t... 2 more"""

GO = """panic: runtime error: index out of range [5] with length 3

goroutine 1 [running]:
main.main()
\t/home/me/main.go:8 +0x1d

goroutine 6 [chan receive]:
main.worker(0xc000012345)
\t/home/me/main.go:20 +0x45
created by main.main in goroutine 1
\t/home/me/main.go:7 +0x25

exit status 2"""

RUST = """thread 'main' panicked at src/main.rs:2:5:
explicit panic
stack backtrace:
   0: rust_begin_unwind
             at /rustc/abc/library/std/src/panicking.rs:645:5
   1: app::main
             at ./src/main.rs:2:5
note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace."""


def test_python_trace_is_cut_to_the_exception() -> None:
    assert cut_stack_trace(PYTHON) == (
        "running tests\n[stack trace cut: 6 lines]\nValueError: bad\nexit 1"
    )


def test_chained_python_trace_keeps_the_last_exception() -> None:
    out = cut_stack_trace(CHAINED)
    assert out == "[stack trace cut: 10 lines]\nRuntimeError: lookup failed"


def test_node_trace() -> None:
    assert cut_stack_trace(NODE) == (
        "TypeError: x is not a function\n[stack trace cut: 3 lines]\nNode.js v20.11.0"
    )


def test_java_trace_keeps_exception_and_cause() -> None:
    assert cut_stack_trace(JAVA) == (
        'Exception in thread "main" java.lang.IllegalStateException: boom\n'
        "[stack trace cut: 2 lines]\n"
        "Caused by: java.io.IOException: disk\n"
        "[stack trace cut: 2 lines]"
    )


def test_go_trace() -> None:
    out = cut_stack_trace(GO)
    assert out.startswith("panic: runtime error: index out of range [5] with length 3\n\n")
    assert "[stack trace cut: 9 lines]" in out
    assert out.endswith("\n\nexit status 2")
    assert "main.go" not in out


def test_rust_backtrace() -> None:
    out = cut_stack_trace(RUST)
    assert out.startswith("thread 'main' panicked at src/main.rs:2:5:\nexplicit panic\n")
    assert "[stack trace cut: 5 lines]" in out and "rustc" not in out
    assert out.endswith("verbose backtrace.")


def test_truncated_python_trace_is_still_cut() -> None:
    out = cut_stack_trace('Traceback (most recent call last):\n  File "a.py", line 1')
    assert out == "[stack trace cut: 2 lines]"


def test_plain_text_is_unchanged() -> None:
    for text in [
        "",
        "hello\nworld",
        "    at the moment nothing",
        "goroutines are cheap",
        "Look at this:\n    at home\nok",
    ]:
        assert cut_stack_trace(text) == text


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                "Traceback (most recent call last):",
                "  File 'x'",
                "E: x",
                "    at f (a.js:1:2)",
                "\tat a.B(C.java:1)",
                "goroutine 1 [x]:",
                "stack backtrace:",
                "",
                "text",
                "\t... 1 more",
                "During handling of the above exception, another exception occurred:",
            ]
        )
        | st.text(),
        max_size=20,
    ).map("\n".join)
)
def test_cut_stack_trace_is_total(text: str) -> None:
    out = cut_stack_trace(text)
    assert isinstance(out, str)
    assert len(out.split("\n")) <= len(text.split("\n"))
