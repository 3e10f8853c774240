// toolview's companion extension for pi: reports calls another extension refused.
//
// pi records a call blocked by an extension's `tool_call` handler exactly like
// a failed call (an error result whose text is the reason), so nothing in its
// events or session file tells the two apart. This extension, loaded first
// (`pi -e` paths load before discovered ones), sees every call that passed
// pi's own checks (tool known, arguments valid) in `tool_call`, and every call
// pi then executed in `tool_result`. A call that reached the guards, never
// executed and ended in error was refused. The refusal is recorded in the
// session file (a `custom` entry) and, in RPC mode, reported on stdout as a
// status update, so live and stored reads agree. It never blocks or changes
// anything itself.
export default function (pi: any) {
  const reached = new Set<string>();
  const executed = new Set<string>();
  pi.on("tool_call", async (event: any) => {
    reached.add(event.toolCallId);
    return undefined;
  });
  pi.on("tool_result", async (event: any) => {
    executed.add(event.toolCallId);
    return undefined;
  });
  pi.on("tool_execution_end", async (event: any, ctx: any) => {
    const id = event.toolCallId;
    const refused = reached.has(id) && !executed.has(id) && event.isError === true;
    reached.delete(id);
    executed.delete(id);
    if (!refused) return;
    const content = Array.isArray(event.result?.content) ? event.result.content : [];
    const reason = content
      .filter((block: any) => block?.type === "text" && typeof block.text === "string")
      .map((block: any) => block.text)
      .join("\n");
    const report = { toolCallId: id, toolName: event.toolName, reason };
    pi.appendEntry("toolview:refused", report);
    if (ctx?.hasUI) ctx.ui.setStatus("toolview:refused", JSON.stringify(report));
  });
}
