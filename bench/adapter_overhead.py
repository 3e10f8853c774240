"""What recording costs an agent: the same run with and without the adapter, side by side.

A pydantic-ai agent (``FunctionModel``) and a smolagents ``ToolCallingAgent``
(a scripted model) each make ``CALLS`` calls of a trivial tool, ``WIDTH`` at
a time in parallel. Each run is timed bare; with hooks that record nothing
(a pass-through capability with the adapter's hooks, a pass-through
iterator), which is what the framework's own hook dispatch costs; with the
adapter recording into a ``capture()`` that keeps the thread only; and with a
record file too. The runs alternate, and the ratios of the medians to the
hooks-only run are printed (timings on a shared machine are noisy: only the
ratios mean something).

    python bench/adapter_overhead.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from smolagents import Model, Tool, ToolCallingAgent
from smolagents.models import (
    ChatMessage,
    ChatMessageToolCall,
    ChatMessageToolCallFunction,
    MessageRole,
)
from smolagents.monitoring import LogLevel

import toolview

CALLS, WIDTH, RUNS = 200, 10, 15


def pydantic_ai_agent() -> Agent[None, str]:
    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        turn = sum(isinstance(m, ModelResponse) for m in messages)
        if turn * WIDTH >= CALLS:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart("add", {"a": turn, "b": n}) for n in range(WIDTH)])

    agent = Agent(FunctionModel(respond))

    @agent.tool_plain
    def add(a: int, b: int) -> int:
        return a + b

    return agent


class PassThrough(AbstractCapability[Any]):
    """The adapter's hooks, recording nothing: the cost of pydantic-ai dispatching them."""

    async def before_run(self, ctx: Any) -> None:
        return None

    async def before_model_request(self, ctx: Any, request_context: Any) -> Any:
        return request_context

    async def after_model_request(self, ctx: Any, *, request_context: Any, response: Any) -> Any:
        return response

    async def wrap_tool_validate(
        self, ctx: Any, *, call: Any, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        return await handler(args)

    async def wrap_tool_execute(
        self, ctx: Any, *, call: Any, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        return await handler(args)


def pydantic_ai_run(rec: Any) -> None:
    if rec == "hooks":
        capabilities: list[Any] = [PassThrough()]
    else:
        capabilities = [rec.pydantic_ai()] if rec is not None else []
    pydantic_ai_agent().run_sync("add", capabilities=capabilities)


class Add(Tool):
    name, description, output_type = "add", "Adds.", "integer"
    inputs = {  # noqa: RUF012
        "a": {"type": "integer", "description": "a"},
        "b": {"type": "integer", "description": "b"},
    }

    def forward(self, a: int, b: int) -> int:
        return a + b


class Scripted(Model):
    def __init__(self) -> None:
        super().__init__(model_id="scripted")
        self.turn = 0

    def generate(self, messages: Any, **kwargs: Any) -> ChatMessage:
        self.turn += 1
        if self.turn * WIDTH > CALLS:
            calls = [("final_answer", {"answer": "done"})]
        else:
            calls = [("add", {"a": self.turn, "b": n}) for n in range(WIDTH)]
        tool_calls = [
            ChatMessageToolCall(
                id=f"c{self.turn}-{n}",
                type="function",
                function=ChatMessageToolCallFunction(name=name, arguments=arguments),
            )
            for n, (name, arguments) in enumerate(calls)
        ]
        return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=tool_calls)


def smolagents_run(rec: Any) -> None:
    agent = ToolCallingAgent(
        tools=[Add()], model=Scripted(), verbosity_level=LogLevel.OFF, max_steps=CALLS
    )
    events = agent.run("add", stream=True)
    if rec == "hooks":
        events = (event for event in events)  # a pass-through iterator: what wrapping costs
    elif rec is not None:
        events = rec.smolagents(events)
    for _ in events:
        pass


def timed(run: Callable[[Any], None], mode: str, folder: Path) -> float:
    start = time.perf_counter()
    if mode in ("bare", "hooks"):
        run(None if mode == "bare" else "hooks")
    else:
        record = folder / "run.jsonl" if mode == "record" else None
        with toolview.capture(live=False, record=record) as rec:
            run(rec)
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        for label, run in (("pydantic-ai", pydantic_ai_run), ("smolagents", smolagents_run)):
            times: dict[str, list[float]] = {"bare": [], "hooks": [], "thread": [], "record": []}
            for _ in range(RUNS):
                for mode in times:
                    times[mode].append(timed(run, mode, folder))
            bare, hooks, thread, record = (statistics.median(times[mode]) for mode in times)
            print(
                f"{label}: {CALLS} calls, {WIDTH} in parallel: bare {bare * 1000:.0f} ms,"
                f" hooks recording nothing {hooks / bare:.2f}x bare; against those hooks:"
                f" recorded {thread / hooks:.2f}x ({(thread - hooks) / CALLS * 1e6:+.0f} µs/call),"
                f" to a file too {record / hooks:.2f}x ({(record - hooks) / CALLS * 1e6:+.0f} µs)"
            )


if __name__ == "__main__":
    main()
