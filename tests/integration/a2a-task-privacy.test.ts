/**
 * Issue 26 §1 and §12: an organization's A2A agent keeps each caller's tasks to that caller (a
 * caller token issued with the first answer), lists only the caller's own tasks in pages (A2A 1.0
 * §3.1.4), and answers JSON-RPC errors as JSON-RPC 2.0 says — driven with the official SDK client
 * and with raw JSON-RPC over real HTTP.
 */
import crypto from "node:crypto";
import { ClientFactory, type Client } from "@a2a-js/sdk/client";
import { Role, type Message, type Task } from "@a2a-js/sdk";
import { GET as cardRoute } from "@/app/api/a2a/orgs/[organizationId]/.well-known/agent-card.json/route";
import { GET as orgGet, POST as orgPost } from "@/app/api/a2a/orgs/[organizationId]/route";
import { voiceAssistants } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/peer-address";
import { registerTestUserWithoutAssistants } from "../helpers/accounts";
import { routeTable, serveFetchHandler, type WebServer } from "../helpers/web-server";

jest.setTimeout(120_000);

let web: WebServer;
const original = { publicUrl: env.PUBLIC_URL };
const mutableEnv = env as { PUBLIC_URL: string };

beforeAll(async () => {
  web = await serveFetchHandler(
    routeTable([
      { pattern: "/api/a2a/orgs/[organizationId]/.well-known/agent-card.json", methods: { GET: cardRoute } },
      { pattern: "/api/a2a/orgs/[organizationId]", methods: { GET: orgGet, POST: orgPost } },
    ]),
  );
  mutableEnv.PUBLIC_URL = web.url;
});
afterAll(async () => {
  mutableEnv.PUBLIC_URL = original.publicUrl;
  await web.close();
  await closeDb();
});

async function agent(): Promise<string> {
  const account = await registerTestUserWithoutAssistants();
  const db = await getDb();
  await db.insert(voiceAssistants).values({ id: crypto.randomUUID(), organizationId: account.organizationId, name: "Robin", isActive: true });
  return account.organizationId;
}

const client = (organizationId: string): Promise<Client> => new ClientFactory().createFromUrl(`${web.url}/api/a2a/orgs/${organizationId}/`);
const asCaller = (token: string) => ({ serviceParameters: { authorization: `Bearer ${token}` } });
const tokenOf = (task: Task) => (task.metadata as Record<string, unknown>).callerToken as string;

function message(text: string): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId: "",
    taskId: "",
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
    metadata: { skill: "leave_message" },
    extensions: [],
    referenceTaskIds: [],
  };
}

async function send(organizationId: string, text: string, token?: string): Promise<Task> {
  const result = await (await client(organizationId)).sendMessage({ tenant: "", message: message(text), configuration: undefined, metadata: undefined }, token ? asCaller(token) : undefined);
  return result as Task;
}

async function rpc(organizationId: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${web.url}/api/a2a/orgs/${organizationId}`, {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0", [PEER_ADDRESS_HEADER]: `203.0.113.${Math.floor(Math.random() * 250) + 1}`, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, body: await res.json() };
}

describe("A2A tasks belong to the caller that created them", () => {
  it("issues a caller token with the first answer; only that token reads, lists and cancels the task", async () => {
    const org = await agent();
    const mine = await send(org, "Please ask Sam Park (+14155550123) to call me back about the crown.");
    const token = tokenOf(mine);
    expect(token).toMatch(/^a2act_/);
    const theirs = await send(org, "A message from someone else, Jo Lee, jo@example.com.");
    const theirToken = tokenOf(theirs);
    expect(theirToken).not.toBe(token);

    const c = await client(org);
    // Anonymous: no task is found, none is listed.
    await expect(c.getTask({ tenant: "", id: mine.id })).rejects.toThrow(/not found/i);
    const anonymous = await rpc(org, { jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} });
    expect(anonymous.body.result).toMatchObject({ tasks: [], totalSize: 0 });
    // Another caller's token: not found, not listed, not cancelable.
    await expect(c.getTask({ tenant: "", id: mine.id }, asCaller(theirToken))).rejects.toThrow(/not found/i);
    await expect(c.cancelTask({ tenant: "", id: mine.id, metadata: undefined }, asCaller(theirToken))).rejects.toThrow(/not found/i);
    const listed = await c.listTasks({ tenant: "", contextId: "", status: 0, pageSize: undefined, pageToken: "", historyLength: undefined, statusTimestampAfter: undefined, includeArtifacts: undefined }, asCaller(theirToken));
    expect(listed.tasks.map((t) => t.id)).toEqual([theirs.id]);
    expect(JSON.stringify(listed)).not.toContain("Sam Park");
    // The owner reads its own.
    expect((await c.getTask({ tenant: "", id: mine.id }, asCaller(token))).id).toBe(mine.id);
    // A forged token or one from another organization is refused with 401.
    const forged = await rpc(org, { jsonrpc: "2.0", id: 2, method: "GetTask", params: { id: mine.id } }, { authorization: `Bearer ${token.slice(0, -2)}xx` });
    expect(forged.status).toBe(401);
    expect(forged.body.error.message).toMatch(/caller token was refused/);
    const otherOrg = await agent();
    const elsewhere = await send(otherOrg, "Hello from another business's caller.");
    expect((await rpc(org, { jsonrpc: "2.0", id: 3, method: "ListTasks", params: {} }, { authorization: `Bearer ${tokenOf(elsewhere)}` })).status).toBe(401);
  });

  it("refuses to continue another caller's conversation by its contextId", async () => {
    const org = await agent();
    const first = await send(org, "Please have Dana call me back on +14155550188.");
    const res = await rpc(org, {
      jsonrpc: "2.0",
      id: 1,
      method: "SendMessage",
      params: { message: { messageId: crypto.randomUUID(), contextId: first.contextId, role: "ROLE_USER", parts: [{ text: "What did I just say?" }] } },
    });
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toMatch(/belongs to another caller/);
    expect(JSON.stringify(res.body)).not.toContain("Dana");
  });

  it("pages ListTasks with pageSize, pageToken, nextPageToken and totalSize; artifacts only when asked", async () => {
    const org = await agent();
    const first = await send(org, "Message one for the team.");
    const token = tokenOf(first);
    for (const n of ["two", "three", "four", "five"]) await send(org, `Message ${n} for the team.`, token);
    const auth = { authorization: `Bearer ${token}` };
    const page1 = await rpc(org, { jsonrpc: "2.0", id: 1, method: "ListTasks", params: { pageSize: 2 } }, auth);
    expect(page1.body.result).toMatchObject({ pageSize: 2, totalSize: 5 });
    expect(page1.body.result.tasks).toHaveLength(2);
    expect(page1.body.result.nextPageToken).not.toBe("");
    expect(page1.body.result.tasks.every((t: { artifacts?: unknown[] }) => !t.artifacts || t.artifacts.length === 0)).toBe(true);
    const page2 = await rpc(org, { jsonrpc: "2.0", id: 2, method: "ListTasks", params: { pageSize: 2, pageToken: page1.body.result.nextPageToken, includeArtifacts: true } }, auth);
    const page3 = await rpc(org, { jsonrpc: "2.0", id: 3, method: "ListTasks", params: { pageSize: 2, pageToken: page2.body.result.nextPageToken } }, auth);
    expect(page2.body.result.tasks[0].artifacts.length).toBeGreaterThan(0);
    expect(page3.body.result.tasks).toHaveLength(1);
    expect(page3.body.result.nextPageToken).toBe("");
    const ids = [...page1.body.result.tasks, ...page2.body.result.tasks, ...page3.body.result.tasks].map((t: { id: string }) => t.id);
    expect(new Set(ids).size).toBe(5);
    expect(ids).toContain(first.id);
    const bad = await rpc(org, { jsonrpc: "2.0", id: 4, method: "ListTasks", params: { pageToken: "not-a-token" } }, auth);
    expect(bad.body.error.code).toBe(-32602);
  });
});

describe("JSON-RPC 2.0 errors", () => {
  it("answers -32600 Invalid Request for a wrong jsonrpc, a missing method, an object id, {} and a batch", async () => {
    const org = await agent();
    const cases: unknown[] = [
      { jsonrpc: "aaa", id: 1, method: "GetTask", params: { id: "x" } },
      { jsonrpc: "2.0", id: 2, params: { id: "x" } },
      { jsonrpc: "2.0", id: { nested: true }, method: "GetTask", params: { id: "x" } },
      {},
      [{ jsonrpc: "2.0", id: 3, method: "GetTask", params: { id: "x" } }],
    ];
    for (const body of cases) {
      const res = await rpc(org, body);
      expect({ body, code: res.body.error?.code, jsonrpc: res.body.jsonrpc }).toEqual({ body, code: -32600, jsonrpc: "2.0" });
    }
  });

  it("rejects a message without role (-32602), leaks no Node message for odd parts, and answers 429 as a JSON-RPC error", async () => {
    const org = await agent();
    const noRole = await rpc(org, { jsonrpc: "2.0", id: 1, method: "SendMessage", params: { message: { messageId: "m1", parts: [{ text: "hi" }] } } });
    expect(noRole.body.error).toMatchObject({ code: -32602 });
    expect(noRole.body.error.message).toMatch(/role/);
    const raw = await rpc(org, { jsonrpc: "2.0", id: 2, method: "SendMessage", params: { message: { messageId: "m2", role: "ROLE_USER", parts: [{ raw: "AAEC" }] } } });
    expect(JSON.stringify(raw.body)).not.toMatch(/Cannot read|undefined|TypeError|at .*\.js/);
    expect(raw.body.jsonrpc).toBe("2.0");

    const ip = "198.51.100.77";
    let last = { status: 0, headers: new Headers(), body: {} as Record<string, unknown> };
    for (let i = 0; i < 31; i++) last = await rpc(org, { jsonrpc: "2.0", id: i, method: "GetTask", params: { id: "missing" } }, { [PEER_ADDRESS_HEADER]: ip });
    expect(last.status).toBe(429);
    expect(Number(last.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32029 } });
  });
});
