// Checks AG-UI event streams with the protocol's own TypeScript SDK, so toolview's
// /agui output is judged by what real AG-UI clients run, not by our reading of the spec.
//
//   node agui_verify.mjs < stream      (a JSON array of events, SSE `data:` frames, or JSON Lines)
//
// Each event is validated against @ag-ui/core's zod EventSchemas (shape), then the
// whole sequence is piped through @ag-ui/client's verifyEvents (ordering: RUN_STARTED
// first, START/CONTENT/END and START/ARGS/END pairing, nothing after RUN_FINISHED or
// RUN_ERROR but a new RUN_STARTED, no run finished with a call or message open, ...).
// A stream that passes both is then replayed through the client's own agent pipeline
// (AbstractAgent.runAgent: its verifier and reducer), and the messages it builds are
// checked: ids unique, every call's arguments JSON, every tool message answering a call;
// a warning from the client (a field it does not know and drops, ...) is an error too.
//
// Batch mode, so one node start checks many threads: stdin is
//   {"streams": {"name": [events] | "SSE or JSON Lines text", ...}}
//
// Prints one JSON report on stdout:
//   {"events": N, "errors": [{"stream"?, "index", "type", "check", "message"}], "openRun": bool}
// (batch mode adds "streams": {name: report}); exits 1 on any violation, 2 on unreadable input.

import { readFileSync } from "node:fs";
import { AbstractAgent, verifyEvents } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { from, lastValueFrom, tap } from "rxjs";

/** A report entry for input that could not be read as events. */
function inputError(message) {
  return { index: null, type: null, check: "input", message: String(message) };
}

/** SSE frames -> their `data:` payloads (multi-line data joined by "\n", per the SSE spec). */
function parseSse(text) {
  const events = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block
      .split(/\r?\n/)
      .filter((line) => line.startsWith("data:"))
      .map((line) => line.slice(5).replace(/^ /, ""));
    if (data.length > 0) events.push(JSON.parse(data.join("\n")));
  }
  return events;
}

/** One stream's text (array, SSE or JSON Lines) -> its events. Throws on unreadable input. */
function parseStream(text) {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  if (trimmed.startsWith("[")) return JSON.parse(trimmed);
  if (/^(data|event|id|retry):|^:/m.test(trimmed) && !trimmed.startsWith("{")) {
    return parseSse(trimmed);
  }
  return trimmed.split(/\r?\n/).filter((line) => line.trim() !== "").map((line) => JSON.parse(line));
}

/** Shape errors from the zod schemas, one entry per bad event. */
function schemaErrors(events) {
  const errors = [];
  events.forEach((event, index) => {
    const parsed = EventSchemas.safeParse(event);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "$"}: ${i.message}`);
      errors.push({ index, type: event?.type ?? null, check: "schema", message: issues.join("; ") });
    }
  });
  return errors;
}

/** The first ordering violation verifyEvents raises (it stops the stream there), if any. */
async function orderErrors(events) {
  let passed = 0;
  const checked = from(events).pipe(
    verifyEvents(false),
    tap(() => {
      passed += 1;
    }),
  );
  try {
    await lastValueFrom(checked, { defaultValue: null });
  } catch (error) {
    const event = events[passed];
    const message = String(error?.message ?? error);
    return [{ index: passed, type: event?.type ?? null, check: "order", message }];
  }
  return [];
}

/** Whether the stream ends inside a run (legal: a run still going; reported, not an error). */
function endsInRun(events) {
  let open = false;
  for (const event of events) {
    if (event?.type === "RUN_STARTED") open = true;
    if (event?.type === "RUN_FINISHED" || event?.type === "RUN_ERROR") open = false;
  }
  return open;
}

/** An agent whose run replays a recorded stream, so the client's own pipeline consumes it. */
class Replay extends AbstractAgent {
  constructor(events) {
    super({ threadId: "replay" });
    this.events = events;
  }

  run() {
    return from(this.events);
  }
}

/** What the client's reducer builds from the stream: unique ids, JSON args, answers to real calls. */
async function applyErrors(events) {
  const errors = [];
  const fail = (message) => errors.push({ index: null, type: null, check: "apply", message });
  const agent = new Replay(events);
  const warn = console.warn;
  console.warn = (...args) => fail(`the client warned: ${args.join(" ")}`); // e.g. dropped fields
  try {
    await agent.runAgent({ runId: "replay" });
  } catch (error) {
    fail(String(error?.message ?? error));
    return errors;
  } finally {
    console.warn = warn;
  }
  const ids = new Set();
  const calls = new Set();
  for (const message of agent.messages) {
    if (ids.has(message.id)) fail(`message id '${message.id}' is used twice`);
    ids.add(message.id);
    for (const call of message.toolCalls ?? []) {
      if (calls.has(call.id)) fail(`tool call id '${call.id}' is used twice`);
      calls.add(call.id);
      try {
        JSON.parse(call.function.arguments);
      } catch {
        const args = call.function.arguments.slice(0, 200);
        fail(`tool call '${call.id}' has arguments that are not JSON: ${args}`);
      }
    }
  }
  for (const message of agent.messages) {
    if (message.role === "tool" && !calls.has(message.toolCallId)) {
      fail(`tool message '${message.id}' answers unknown call '${message.toolCallId}'`);
    }
  }
  return errors;
}

async function verify(events) {
  if (!Array.isArray(events)) {
    return { events: 0, errors: [inputError("not a list of events")], openRun: false };
  }
  const errors = [...schemaErrors(events), ...(await orderErrors(events))];
  if (errors.length === 0) errors.push(...(await applyErrors(events)));
  return { events: events.length, errors, openRun: endsInRun(events) };
}

/** The batch's streams, or one stream; a lone object without "streams" is one JSON Lines event. */
function readInput(text) {
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) {
    let whole = null;
    try {
      whole = JSON.parse(trimmed);
    } catch {
      // JSON Lines: several objects, read below
    }
    const streams = whole?.streams;
    if (streams !== null && typeof streams === "object" && !Array.isArray(streams)) {
      return { streams };
    }
  }
  return { single: parseStream(text) };
}

async function main() {
  let input;
  try {
    input = readInput(readFileSync(0, "utf8"));
  } catch (error) {
    return { events: 0, errors: [inputError(error.message)], unreadable: true };
  }
  if ("single" in input) return verify(input.single);
  const streams = {};
  const errors = [];
  let count = 0;
  for (const [name, stream] of Object.entries(input.streams)) {
    let events = null;
    try {
      events = typeof stream === "string" ? parseStream(stream) : stream;
    } catch (error) {
      streams[name] = { events: 0, errors: [inputError(error.message)] };
    }
    if (events !== null) streams[name] = await verify(events);
    count += streams[name].events;
    errors.push(...streams[name].errors.map((e) => ({ stream: name, ...e })));
  }
  return { events: count, errors, streams };
}

const { unreadable, ...report } = await main();
process.stdout.write(JSON.stringify(report) + "\n");
process.exitCode = unreadable ? 2 : report.errors.length > 0 ? 1 : 0;
