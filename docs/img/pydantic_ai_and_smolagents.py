"""Screenshots of the live page for docs/integrations.md: each framework's agent, published.

Run from the repository root (after the frameworks' extras are installed):

    .venv/bin/python docs/img/pydantic_ai_and_smolagents.py

It starts a real ``toolview serve`` on a temporary log, runs a pydantic-ai
agent (``FunctionModel``) and a smolagents agent (a scripted model) offline
with ``capture(to=…)``, opens each thread's page in Chromium and writes
``docs/img/pydantic-ai.png`` and ``docs/img/smolagents.png``. The
agents are the ones the docs describe: a shell command, a file read, a JSON
tool and a failing tool, in parallel where the framework runs calls so.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright
from pydantic_ai import Agent, ModelRetry, RunContext
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
from toolview.adapters.smolagents import call_id
from toolview.hosts.command import CommandRunner

HERE = Path(__file__).resolve().parent
NOTES = "# Release notes\n\n- faster start\n- dark mode\n"
STOCK = {"items": [{"name": "bolt", "count": 3}, {"name": "nut", "count": 5}]}
BUILD = ["sh", "-c", "echo compiling; echo linking; echo built"]


def serve(folder: Path) -> tuple[subprocess.Popen[str], str]:
    args = ["serve", "--port", "0", "--db", str(folder / "log.db")]
    command = [sys.executable, "-c", "from toolview.cli import main; main()", *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    for line in process.stdout:
        found = re.search(r"serving on (http://\S+?)/?$", line.strip())
        if found:
            return process, found.group(1)
    raise RuntimeError("toolview serve printed no URL")


def pydantic_ai_run(url: str, notes: Path) -> None:
    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) > 1:
            return ModelResponse(parts=[TextPart("Built; 3 bolts and 5 nuts in stock.")])
        return ModelResponse(
            parts=[
                TextPart("Building, and checking the notes and the stock."),
                ToolCallPart("build", {}),
                ToolCallPart("read_file", {"path": notes.name}),
                ToolCallPart("inventory", {}),
                ToolCallPart("deploy", {"target": "staging"}),
            ]
        )

    agent = Agent(FunctionModel(respond))
    with toolview.capture(live=False, to=f"{url}/threads/pydantic-ai") as rec:

        @agent.tool
        def build(ctx: RunContext[None]) -> str:
            runner = CommandRunner(BUILD, tool_call_id=ctx.tool_call_id, on_observation=rec.emit)
            return f"exit {runner.run().exit_code}"

        @agent.tool_plain
        def read_file(path: str) -> str:
            return (notes.parent / path).read_text()

        @agent.tool_plain
        def inventory() -> dict[str, Any]:
            return STOCK

        @agent.tool_plain
        def deploy(target: str) -> str:
            raise ModelRetry(f"{target} is locked by another deploy; try again later")

        agent.run_sync("Build it and tell me what is in stock", capabilities=[rec.pydantic_ai()])


class Scripted(Model):
    def __init__(self, notes: Path) -> None:
        super().__init__(model_id="scripted")
        self.turns = iter(
            [
                [("build", {}), ("read_file", {"path": notes.name}), ("inventory", {})],
                [("deploy", {"target": "staging"})],
                [("final_answer", {"answer": "Built; 3 bolts and 5 nuts in stock."})],
            ]
        )

    def generate(self, messages: Any, **kwargs: Any) -> ChatMessage:
        calls = [
            ChatMessageToolCall(
                id=f"call_{name}",
                type="function",
                function=ChatMessageToolCallFunction(name=name, arguments=arguments),
            )
            for name, arguments in next(self.turns)
        ]
        return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=calls)


def smolagents_run(url: str, notes: Path) -> None:
    with toolview.capture(live=False, to=f"{url}/threads/smolagents") as rec:

        class Build(Tool):
            name, description, inputs, output_type = "build", "Builds.", {}, "string"

            def forward(self) -> str:
                runner = CommandRunner(BUILD, tool_call_id=call_id("build"), on_observation=rec.emit)
                return f"exit {runner.run().exit_code}"

        class ReadFile(Tool):
            name, description, output_type = "read_file", "Reads a file.", "string"
            inputs = {"path": {"type": "string", "description": "the file"}}  # noqa: RUF012

            def forward(self, path: str) -> str:
                return (notes.parent / path).read_text()

        class Inventory(Tool):
            name, description, inputs, output_type = "inventory", "Stock.", {}, "object"

            def forward(self) -> dict[str, Any]:
                return STOCK

        class Deploy(Tool):
            name, description, output_type = "deploy", "Deploys.", "string"
            inputs = {"target": {"type": "string", "description": "where"}}  # noqa: RUF012

            def forward(self, target: str) -> str:
                raise RuntimeError(f"{target} is locked by another deploy")

        tools = [Build(), ReadFile(), Inventory(), Deploy()]
        agent = ToolCallingAgent(tools=tools, model=Scripted(notes), verbosity_level=LogLevel.OFF)
        for _ in rec.smolagents(agent.run("Build it and tell me what is in stock", stream=True)):
            pass


def screenshot(url: str, thread: str, path: Path) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
        )
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(f"{url}/threads/{thread}")
        page.wait_for_selector(".tv-call", timeout=60_000)
        page.screenshot(path=str(path), full_page=True)
        browser.close()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        notes = Path(folder) / "NOTES.md"
        notes.write_text(NOTES)
        process, url = serve(Path(folder))
        try:
            pydantic_ai_run(url, notes)
            smolagents_run(url, notes)
            for thread in ("pydantic-ai", "smolagents"):
                screenshot(url, thread, HERE / f"{thread}.png")
                print(f"wrote {HERE / f'{thread}.png'}")
        finally:
            process.kill()
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
