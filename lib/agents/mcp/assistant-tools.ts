import "server-only";
import type { Db } from "@/db/client";
import type { AssistantToolCall } from "@/db/schema";
import type { ReplyTools, ToolCallResult, ToolDefinition } from "@/lib/platform/providers/llm/interface";
import { connectMcp, describeMcpError, MCP_REQUEST_TIMEOUT_MS, type McpSession } from "./client";
import { usableServices } from "./service";

/**
 * The assistant uses registered tools (docs/mcp.md#the-assistant-uses-your-tools): during a voice
 * test, a chat, a call or an A2A question, the model is offered the tools of the organization's
 * active services that were healthy at their last check (the tools they really listed then). A call
 * from the model connects to the service (one session per service per turn) and runs the tool; every
 * call is recorded on the turn (assistant_reply.tool_calls).
 *
 * Tool names as the model sees them: `<service>__<tool>` in letters, digits, _ and - (at most 64).
 */
export const MAX_ASSISTANT_TOOLS = 64;
/** What one tool result may put back into the model's context. */
export const MAX_TOOL_RESULT_CHARS = 4000;

export type AssistantToolSet = ReplyTools & {
  /** Calls made so far, oldest first. */
  calls: AssistantToolCall[];
  /** Closes the sessions the calls opened. */
  close(): Promise<void>;
};

type Target = { serviceId: string; serviceName: string; endpoint: string; tool: string };

function slug(value: string, max: number): string {
  return (
    value
      .toLowerCase()
      .replace(/[^a-z0-9_-]+/g, "_")
      .replace(/^_+|_+$/g, "")
      .slice(0, max) || "service"
  );
}

function resultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const parts = Array.isArray(result.content) ? (result.content as { type: string; text?: string }[]) : [];
  const text = parts
    .map((part) => (part.type === "text" ? (part.text ?? "") : `[${part.type} content]`))
    .join("\n")
    .trim();
  const value = text || (result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : "");
  return value.length > MAX_TOOL_RESULT_CHARS ? `${value.slice(0, MAX_TOOL_RESULT_CHARS)}…` : value;
}

/** The organization's usable tools, or null when it has none. */
export async function loadAssistantTools(db: Db, organizationId: string): Promise<AssistantToolSet | null> {
  const services = await usableServices(db, organizationId);
  const targets = new Map<string, Target>();
  const definitions: ToolDefinition[] = [];
  for (const service of services) {
    for (const tool of service.tools ?? []) {
      if (definitions.length >= MAX_ASSISTANT_TOOLS) break;
      const base = `${slug(service.name, 24)}__${slug(tool.name, 36)}`;
      let name = base;
      for (let n = 2; targets.has(name); n++) name = `${base.slice(0, 60)}_${n}`;
      targets.set(name, { serviceId: service.id, serviceName: service.name, endpoint: service.endpoint, tool: tool.name });
      definitions.push({
        name,
        description: `${tool.description ?? tool.title ?? tool.name} (from ${service.name})`.slice(0, 1000),
        inputSchema: tool.inputSchema ?? { type: "object", properties: {} },
      });
    }
  }
  if (definitions.length === 0) return null;

  const sessions = new Map<string, Promise<McpSession>>();
  const calls: AssistantToolCall[] = [];

  async function call(name: string, input: unknown): Promise<ToolCallResult> {
    const target = targets.get(name);
    if (!target) return { text: `There is no tool named ${name}.`, isError: true };
    const started = performance.now();
    let outcome: ToolCallResult;
    try {
      let session = sessions.get(target.serviceId);
      if (!session) {
        session = connectMcp(target.endpoint);
        sessions.set(target.serviceId, session);
        session.catch(() => sessions.delete(target.serviceId));
      }
      const result = await (await session).client.callTool(
        { name: target.tool, arguments: (input && typeof input === "object" ? input : {}) as Record<string, unknown> },
        { timeout: MCP_REQUEST_TIMEOUT_MS },
      );
      outcome = { text: resultText(result) || "(no content)", isError: Boolean(result.isError) };
    } catch (error) {
      outcome = { text: `The ${target.serviceName} service could not run ${target.tool}: ${describeMcpError(error)}`, isError: true };
    }
    calls.push({
      service: target.serviceName,
      serviceId: target.serviceId,
      tool: target.tool,
      input,
      output: outcome.text,
      isError: outcome.isError,
      durationMs: Math.round(performance.now() - started),
    });
    return outcome;
  }

  return {
    definitions,
    call,
    calls,
    async close() {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((p) => p.then((s) => s.close()).catch(() => undefined)));
    },
  };
}
