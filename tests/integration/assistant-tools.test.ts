/**
 * "The assistant uses registered tools": a voice-test/chat turn with the Anthropic provider (real SDK
 * against the fake Messages API returning tool_use) is offered the tools of the organization's
 * healthy, active MCP services; the model's call runs on the real MCP server built with the SDK, its
 * result is fed back, and the call is recorded on the turn.
 */
import fs from "node:fs/promises";
import { and, eq } from "drizzle-orm";
import { PUT as statusRoute } from "@/app/api/mcp/services/[id]/status/route";
import { POST as checkRoute } from "@/app/api/mcp/services/[id]/check/route";
import { POST as registerRoute } from "@/app/api/mcp/services/register/route";
import { assistantReplies, users, voiceAssistants } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { createAnthropicLlm } from "@/lib/platform/providers/llm/anthropic";
import { createLocalResponder } from "@/lib/platform/providers/llm/local";
import { runVoiceTest } from "@/lib/phone/voice/service";
import { createFilesystemBlobStore } from "@/lib/platform/blob-store/filesystem";
import { startFakeAnthropic, type FakeAnthropic, type FakeAnthropicRequest, type FakeReply } from "../fakes/anthropic-server";
import { startMcpServiceFake, type McpServiceFake } from "../fakes/mcp-service";
import { registerTestUser, type TestAccount } from "../helpers/accounts";
import { call } from "../helpers/http";
import crypto from "node:crypto";
import os from "node:os";
import path from "node:path";

const KEY = "sk-ant-tools-test";
let anthropic: FakeAnthropic;
let service: McpServiceFake;
let replyFor: (request: FakeAnthropicRequest) => FakeReply;
const originalAllowPrivate = env.ALLOW_PRIVATE_ENDPOINTS;
const storeDir = path.join(os.tmpdir(), `switchboard-tools-${process.pid}`);
const store = createFilesystemBlobStore(storeDir);

beforeAll(async () => {
  (env as { ALLOW_PRIVATE_ENDPOINTS: boolean }).ALLOW_PRIVATE_ENDPOINTS = true;
  anthropic = await startFakeAnthropic({ apiKey: KEY, reply: (request) => replyFor(request) });
  service = await startMcpServiceFake();
});
afterAll(async () => {
  (env as { ALLOW_PRIVATE_ENDPOINTS: boolean }).ALLOW_PRIVATE_ENDPOINTS = originalAllowPrivate;
  await anthropic.close();
  await service.stop();
  await fs.rm(storeDir, { recursive: true, force: true });
  await closeDb();
});

const llm = () => createAnthropicLlm({ apiKey: KEY, baseURL: anthropic.url, maxRetries: 0, model: "claude-test" });

async function adminWithAssistantAndService(): Promise<{ admin: TestAccount; serviceId: string }> {
  const admin = await registerTestUser();
  const db = await getDb();
  await db.update(users).set({ role: "admin" }).where(eq(users.id, admin.id));
  await db.insert(voiceAssistants).values({ id: crypto.randomUUID(), organizationId: admin.organizationId, name: "Front Desk", isActive: true });
  const registered = await call(registerRoute, "POST", "/api/mcp/services/register", {
    sessionId: admin.sessionId,
    body: { name: "Harbor Inventory", version: "1", description: "Stock", endpoint: service.url, methods: ["check_stock"] },
  });
  expect(registered.status).toBe(201);
  const checked = await call(checkRoute, "POST", "/x", { sessionId: admin.sessionId, params: { id: registered.body.id } });
  expect(checked.body.healthStatus).toBe("healthy");
  return { admin, serviceId: registered.body.id };
}

function turn(admin: TestAccount, text: string, source: "voice_test" | "chat" = "voice_test", provider = llm()) {
  return getDb().then((db) =>
    runVoiceTest(db, {
      organizationId: admin.organizationId,
      userId: admin.id,
      text,
      chatSessionId: source === "chat" ? `chat-${crypto.randomUUID()}` : null,
      source,
      startedAt: performance.now(),
      providers: { llm: provider, mode: "sequential" },
      store,
    }),
  );
}

describe("tools of healthy MCP services in the assistant's turns", () => {
  it("offers them, runs the model's tool_use on the service, feeds the result back, and records the call", async () => {
    const { admin, serviceId } = await adminWithAssistantAndService();
    const before = anthropic.requests.length;
    replyFor = (request) => {
      const last = request.body.messages!.at(-1)!;
      if (typeof last.content === "string") {
        return { text: "[intent:order]\nOne moment.", toolUses: [{ name: "harbor_inventory__check_stock", input: { item: "whitening kit" } }] };
      }
      return "We have four whitening kits in stock.";
    };
    const result = await turn(admin, "Do you have whitening kits?", "chat");

    expect(result.aiResponse).toBe("One moment. We have four whitening kits in stock.");
    expect(result.toolCalls).toEqual([{ service: "Harbor Inventory", tool: "check_stock", isError: false, durationMs: expect.any(Number) }]);
    expect(service.calls.at(-1)).toEqual({ tool: "check_stock", args: { item: "whitening kit" } });

    const [first, second] = anthropic.requests.slice(before);
    // The model also gets take_message and transfer (issue 27); the service's tools follow them.
    expect(first.body.tools!.map((t) => t.name)).toEqual(["take_message", "transfer", "harbor_inventory__check_stock", "harbor_inventory__reserve_item"]);
    expect(first.body.tools![2].input_schema).toMatchObject({ type: "object", properties: { item: { type: "string" } } });
    expect(second.body.messages!.at(-1)!.content).toEqual([
      { type: "tool_result", tool_use_id: expect.any(String), content: "4 whitening kit in stock." },
    ]);

    const db = await getDb();
    const [row] = await db.select().from(assistantReplies).where(eq(assistantReplies.id, result.replyId!));
    expect(row.source).toBe("chat");
    expect(row.toolCalls).toEqual([
      {
        service: "Harbor Inventory",
        serviceId,
        tool: "check_stock",
        input: { item: "whitening kit" },
        output: "4 whitening kit in stock.",
        isError: false,
        durationMs: expect.any(Number),
      },
    ]);
  });

  it("offers nothing from an inactive or unhealthy service, and the turn still answers", async () => {
    const { admin, serviceId } = await adminWithAssistantAndService();
    await call(statusRoute, "PUT", "/x", { sessionId: admin.sessionId, params: { id: serviceId }, body: { isActive: false } });
    replyFor = () => "[intent:other]\nHappy to help.";
    const before = anthropic.requests.length;
    const result = await turn(admin, "Hello");
    expect(result.toolCalls).toEqual([]);
    expect(anthropic.requests[before].body.tools!.map((t) => t.name)).toEqual(["take_message", "transfer"]);

    await call(statusRoute, "PUT", "/x", { sessionId: admin.sessionId, params: { id: serviceId }, body: { isActive: true } });
    await service.stop();
    try {
      const checked = await call(checkRoute, "POST", "/x", { sessionId: admin.sessionId, params: { id: serviceId } });
      expect(checked.body.healthStatus).toBe("unhealthy");
      await turn(admin, "Hello again");
      expect(anthropic.requests.at(-1)!.body.tools!.map((t) => t.name)).toEqual(["take_message", "transfer"]);
    } finally {
      await service.start();
    }
  });

  it("records a failing tool call as an error and lets the model answer anyway", async () => {
    const { admin } = await adminWithAssistantAndService();
    await service.stop();
    try {
      replyFor = (request) =>
        typeof request.body.messages!.at(-1)!.content === "string"
          ? { toolUses: [{ name: "harbor_inventory__check_stock", input: { item: "floss" } }] }
          : "[intent:order]\nI could not check just now, but I can take your name and number for the team.";
      const result = await turn(admin, "Any floss?");
      expect(result.aiResponse).toBe("I could not check just now, but I can take your name and number for the team.");
      expect(result.toolCalls).toEqual([{ service: "Harbor Inventory", tool: "check_stock", isError: true, durationMs: expect.any(Number) }]);
      const result2 = anthropic.requests.at(-1)!.body.messages!.at(-1)!.content as Record<string, unknown>[];
      expect(result2[0]).toMatchObject({ type: "tool_result", is_error: true });
      expect(String(result2[0].content)).toMatch(/^The Harbor Inventory service could not run check_stock: /);
    } finally {
      await service.start();
    }
  });

  it("does not load tools for the local responder, which cannot use them", async () => {
    const { admin } = await adminWithAssistantAndService();
    const before = service.calls.length;
    const result = await turn(admin, "Do you have whitening kits?", "voice_test", createLocalResponder());
    expect(result.providers.llm).toBe("local");
    expect(result.toolCalls).toEqual([]);
    expect(service.calls.length).toBe(before);
    const db = await getDb();
    const rows = await db.select().from(assistantReplies).where(and(eq(assistantReplies.organizationId, admin.organizationId)));
    expect(rows.every((r) => r.toolCalls.length === 0)).toBe(true);
  });
});
