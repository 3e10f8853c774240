"""Screenshots of the live page for docs/integrations.md: the OpenAI Agents SDK and LangGraph.

Run from the repository root (after the extras ``openai-agents`` and ``langchain``):

    .venv/bin/python docs/img/agents_and_langgraph.py

It starts a real ``toolview serve`` on a temporary log, runs an OpenAI Agents SDK agent
(the SDK's ``ScriptedModel``) and a LangGraph ReAct graph (``ToolNode`` and langchain-core's
fake chat model) offline with ``capture(to=…)``, opens each thread's page in Chromium and
writes ``docs/img/openai-agents.png`` and ``docs/img/langgraph.png``. Each agent calls
a shell command, a file read, a JSON tool and a failing tool in one turn (in parallel).
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Annotated, Any

from agents import Agent, Runner, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tool_context import ToolContext
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, HumanMessage
from langchain_core.tools import InjectedToolCallId, tool
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from playwright.sync_api import sync_playwright

import toolview
from toolview.hosts.command import CommandRunner

HERE = Path(__file__).resolve().parent
NOTES = "# Release notes\n\n- faster start\n- dark mode\n"
STOCK = {"items": [{"name": "bolt", "count": 3}, {"name": "nut", "count": 5}]}
BUILD = ["sh", "-c", "echo compiling; echo linking; echo built"]
ANSWER = "Built; 3 bolts and 5 nuts in stock. Staging is locked."
CALLS: list[tuple[str, dict[str, Any], str]] = [
    ("build", {}, "call_build"),
    ("read_file", {"path": "NOTES.md"}, "call_read"),
    ("inventory", {}, "call_stock"),
    ("deploy", {"target": "staging"}, "call_deploy"),
]


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


def openai_agents_run(url: str, folder: Path) -> None:
    set_tracing_disabled(True)
    with toolview.capture(live=False, to=f"{url}/threads/openai-agents") as rec:

        @function_tool
        def build(ctx: ToolContext[Any]) -> str:
            """Build the project."""
            runner = CommandRunner(BUILD, tool_call_id=ctx.tool_call_id, on_observation=rec.emit)
            return f"exit {runner.run().exit_code}"

        @function_tool
        def read_file(path: str) -> str:
            """Read a file."""
            return (folder / path).read_text()

        @function_tool
        def inventory() -> dict[str, Any]:
            """What is in stock."""
            return STOCK

        @function_tool
        def deploy(target: str) -> str:
            """Deploy."""
            raise RuntimeError(f"{target} is locked by another deploy")

        model = ScriptedModel(
            [
                [function_call(name, args, call_id=call) for name, args, call in CALLS],
                [assistant_message(ANSWER)],
            ]
        )
        agent = Agent(name="builder", tools=[build, read_file, inventory, deploy], model=model)
        task = "Build it and tell me what is in stock"
        Runner.run_sync(agent, task, hooks=rec.openai_agents(agent))


class ScriptedChat(FakeMessagesListChatModel):
    def bind_tools(self, tools: Any, **kwargs: Any) -> ScriptedChat:
        return self


def langgraph_run(url: str, folder: Path) -> None:
    with toolview.capture(live=False, to=f"{url}/threads/langgraph") as rec:

        @tool
        def build(call_id: Annotated[str, InjectedToolCallId]) -> str:
            """Build the project."""
            runner = CommandRunner(BUILD, tool_call_id=call_id, on_observation=rec.emit)
            return f"exit {runner.run().exit_code}"

        @tool
        def read_file(path: str) -> str:
            """Read a file."""
            return (folder / path).read_text()

        @tool
        def inventory() -> dict[str, Any]:
            """What is in stock."""
            return STOCK

        @tool
        def deploy(target: str) -> str:
            """Deploy."""
            raise RuntimeError(f"{target} is locked by another deploy")

        calls = [{"name": name, "args": args, "id": call} for name, args, call in CALLS]
        model = ScriptedChat(responses=[AIMessage("", tool_calls=calls), AIMessage(ANSWER)])

        def agent(state: MessagesState) -> dict[str, Any]:
            return {"messages": [model.invoke(state["messages"])]}

        tools = [build, read_file, inventory, deploy]
        builder = StateGraph(MessagesState)
        builder.add_node("agent", agent)
        builder.add_node("tools", ToolNode(tools, handle_tool_errors=True))
        builder.add_edge(START, "agent")
        builder.add_conditional_edges("agent", tools_condition)
        builder.add_edge("tools", "agent")
        prompt = {"messages": [HumanMessage("Build it and tell me what is in stock")]}
        builder.compile().invoke(prompt, {"callbacks": [rec.langchain()]})


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
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        (folder / "NOTES.md").write_text(NOTES)
        process, url = serve(folder)
        try:
            openai_agents_run(url, folder)
            langgraph_run(url, folder)
            for thread in ("openai-agents", "langgraph"):
                screenshot(url, thread, HERE / f"{thread}.png")
                print(f"wrote {HERE / f'{thread}.png'}")
        finally:
            process.kill()
            process.wait(timeout=30)


if __name__ == "__main__":
    main()
