"""What recording costs an agent: the same tool calls with and without the adapter, side by side.

LangChain: 300 ``tool.invoke`` calls (each with a tool call id, as a ``ToolNode`` makes
them), plain and with ``rec.langchain()``. OpenAI Agents SDK: one ``ScriptedModel`` turn of
100 parallel function calls, plain and with ``rec.openai_agents(agent)``. Each pair runs
alternately, seven times; the minimum of each is kept, and printed as a ratio and as the
added milliseconds per call (the recorder's work: redaction, ``describe``, the thread).
Run: .venv/bin/python bench/adapter_overhead_agents_langchain.py (pydantic-ai and smolagents:
bench/adapter_overhead.py)
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call
from langchain_core.tools import tool

import toolview

ROUNDS = 7
LANGCHAIN_CALLS = 300
OPENAI_CALLS = 100


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@function_tool
def add_numbers(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


def langchain_calls(callbacks: list[Any]) -> None:
    for i in range(LANGCHAIN_CALLS):
        call = {"name": "add", "args": {"a": i, "b": 1}, "id": f"c{i}", "type": "tool_call"}
        add.invoke(call, {"callbacks": callbacks})


def openai_calls(hooks_for: Callable[[Agent[Any]], Any]) -> None:
    turn = [
        function_call("add_numbers", {"a": i, "b": 1}, call_id=f"c{i}") for i in range(OPENAI_CALLS)
    ]
    model = ScriptedModel([turn, [assistant_message("done")]])
    agent = Agent(name="adder", tools=[add_numbers], model=model)
    asyncio.run(Runner.run(agent, "add", hooks=hooks_for(agent)))


def timed(work: Callable[[], None]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    set_tracing_disabled(True)
    times: dict[str, list[float]] = {"lc": [], "lc+": [], "oa": [], "oa+": []}
    for _ in range(ROUNDS):
        times["lc"].append(timed(lambda: langchain_calls([])))
        with toolview.capture(live=False) as rec:
            times["lc+"].append(timed(lambda: langchain_calls([rec.langchain()])))
        times["oa"].append(timed(lambda: openai_calls(lambda agent: None)))
        with toolview.capture(live=False) as rec:
            times["oa+"].append(timed(lambda: openai_calls(rec.openai_agents)))
    best = {key: min(values) for key, values in times.items()}
    for name, key, calls in (
        ("langchain", "lc", LANGCHAIN_CALLS),
        ("openai-agents", "oa", OPENAI_CALLS),
    ):
        plain, recorded = best[key], best[key + "+"]
        added = (recorded - plain) / calls * 1000
        print(
            f"{name}: {calls} calls, plain {plain * 1000:.0f} ms,"
            f" recorded {recorded * 1000:.0f} ms, ratio {recorded / plain:.2f},"
            f" {added:+.2f} ms per call"
        )


if __name__ == "__main__":
    main()
