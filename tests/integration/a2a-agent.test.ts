/**
 * Each organization as an A2A agent (/api/a2a/orgs/{organizationId}), driven over real HTTP by the
 * official SDK client: a valid card, SendMessage answered by the assistant (a completed task),
 * leave a message, GetTask, CancelTask, streaming, failures as failed tasks, the conversation in
 * Call History, the rate limit — and Switchboard's own console talking to another organization's agent.
 */
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { ClientFactory, DefaultAgentCardResolver, type Client } from "@a2a-js/sdk/client";
import { Role, TaskState, type Message, type Task } from "@a2a-js/sdk";
import { GET as cardRoute } from "@/app/api/a2a/orgs/[organizationId]/.well-known/agent-card.json/route";
import { GET as orgGet, POST as orgPost } from "@/app/api/a2a/orgs/[organizationId]/route";
import { POST as checkRoute } from "@/app/api/a2a/agents/[id]/check/route";
import { POST as messageRoute } from "@/app/api/a2a/agents/[id]/message/route";
import { POST as createAgentRoute } from "@/app/api/a2a/agents/route";
import { GET as historyRoute } from "@/app/api/call-history/route";
import { GET as callRoute } from "@/app/api/calls/[id]/route";
import { a2aMessages, a2aTasks, appointments, assistantReplies, calls, messages, phoneNumbers, users, voiceAssistants } from "@/db/schema";
import { PROOF_TEXTS } from "@/lib/agents/a2a/agent/phone-proof";
import { validateAgentCard } from "@/lib/agents/a2a/card";
import { a2aDeliverJob } from "@/lib/agents/a2a/messages";
import { closeDb, getDb } from "@/lib/platform/database";
import { toZoned } from "@/lib/scheduling/time";
import { createService } from "@/lib/knowledge/services/service";
import { createResource } from "@/lib/scheduling/resources";
import { everyDay, setProfile } from "../helpers/booking";
import { env } from "@/lib/platform/env";
import { changeCredits, getCreditBalance } from "@/lib/workspace/billing/ledger";
import { registerTestUser, registerTestUserWithoutAssistants, type TestAccount } from "../helpers/accounts";
import { PEER_ADDRESS_HEADER } from "@/lib/platform/http/peer-address";
import { call } from "../helpers/http";
import { runJobsUntil } from "../helpers/jobs";
import { routeTable, serveFetchHandler, type WebServer } from "../helpers/web-server";

jest.setTimeout(90_000);

let web: WebServer;
const original = { publicUrl: env.PUBLIC_URL, allowPrivate: env.ALLOW_PRIVATE_ENDPOINTS };
const mutableEnv = env as { PUBLIC_URL: string; ALLOW_PRIVATE_ENDPOINTS: boolean };

beforeAll(async () => {
  web = await serveFetchHandler(
    routeTable([
      { pattern: "/api/a2a/orgs/[organizationId]/.well-known/agent-card.json", methods: { GET: cardRoute } },
      { pattern: "/api/a2a/orgs/[organizationId]", methods: { GET: orgGet, POST: orgPost } },
    ]),
  );
  // The card names its interface from PUBLIC_URL: point it at this server.
  mutableEnv.PUBLIC_URL = web.url;
  mutableEnv.ALLOW_PRIVATE_ENDPOINTS = true;
});
afterAll(async () => {
  mutableEnv.PUBLIC_URL = original.publicUrl;
  mutableEnv.ALLOW_PRIVATE_ENDPOINTS = original.allowPrivate;
  await web.close();
  await closeDb();
});

const agentBase = (organizationId: string) => `${web.url}/api/a2a/orgs/${organizationId}/`;

async function business(withAssistant = true): Promise<TestAccount> {
  const account = await registerTestUserWithoutAssistants();
  if (withAssistant) {
    const db = await getDb();
    await db.insert(voiceAssistants).values({ id: crypto.randomUUID(), organizationId: account.organizationId, name: "Robin", isActive: true });
  }
  return account;
}

async function client(organizationId: string): Promise<Client> {
  return new ClientFactory().createFromUrl(agentBase(organizationId));
}

/** The caller token each conversation's first answer issued (a task belongs to its caller). */
const tokens = new Map<string, string>();
const asCaller = (token: string | undefined) => (token ? { serviceParameters: { authorization: `Bearer ${token}` } } : undefined);
function remember(task: Task): Task {
  const token = (task.metadata as Record<string, unknown> | undefined)?.callerToken;
  if (typeof token === "string") tokens.set(task.contextId, token);
  return task;
}

function userMessage(text: string, metadata?: Record<string, unknown>, contextId = ""): Message {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId: "",
    role: Role.ROLE_USER,
    parts: [{ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" }],
    metadata,
    extensions: [],
    referenceTaskIds: [],
  };
}

const textOf = (message: Message | undefined) => (message?.parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");

async function ask(organizationId: string, text: string, metadata?: Record<string, unknown>, contextId = ""): Promise<Task> {
  const result = await (await client(organizationId)).sendMessage(
    { tenant: "", message: userMessage(text, metadata, contextId), configuration: undefined, metadata: undefined },
    asCaller(tokens.get(contextId)),
  );
  expect("status" in result).toBe(true);
  return remember(result as Task);
}

async function rpc(organizationId: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(agentBase(organizationId).replace(/\/$/, ""), {
    method: "POST",
    headers: { "content-type": "application/json", "a2a-version": "1.0", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe("the agent card", () => {
  it("is a valid A2A v1.0 card naming the JSON-RPC endpoint, streaming and the skills; 404 for an unknown organization", async () => {
    const account = await business();
    const card = await new DefaultAgentCardResolver().resolve(agentBase(account.organizationId));
    expect(card.supportedInterfaces).toEqual([{ url: `${web.url}/api/a2a/orgs/${account.organizationId}`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }]);
    expect(card.capabilities?.streaming).toBe(true);
    expect(card.skills.map((s) => s.id)).toEqual(["ask_question", "leave_message", "book_appointment", "reschedule_appointment", "cancel_appointment"]);
    expect(validateAgentCard(JSON.parse(JSON.stringify(card)))).toMatchObject({ protocolVersion: "1.0", streaming: true });
    // The JSON-RPC URL itself also answers GET with the card.
    const direct = await fetch(`${web.url}/api/a2a/orgs/${account.organizationId}`);
    expect((await direct.json()).name).toBe(card.name);
    expect((await fetch(`${web.url}/api/a2a/orgs/${crypto.randomUUID()}/.well-known/agent-card.json`)).status).toBe(404);
  });
});

describe("SendMessage, GetTask, CancelTask", () => {
  it("answers a question with the assistant (a completed task), spends a credit, and records the turn", async () => {
    const account = await business();
    const db = await getDb();
    const before = await getCreditBalance(db, account.organizationId);
    const task = await ask(account.organizationId, "What are your opening hours?", { sender: { name: "Booking Bot", agentUrl: "https://bots.example/booking" } });
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const answer = textOf(task.status?.message);
    expect(answer.length).toBeGreaterThan(10);
    expect(task.artifacts[0]).toMatchObject({ name: "answer" });
    expect(task.artifacts[0].parts[0].content).toEqual({ $case: "text", value: answer });
    expect(await getCreditBalance(db, account.organizationId)).toBe(before - 1);
    const [reply] = await db.select().from(assistantReplies).where(eq(assistantReplies.organizationId, account.organizationId));
    expect(reply).toMatchObject({ source: "agent", inputText: "What are your opening hours?", replyText: answer, llmProvider: "local" });

    const token = tokens.get(task.contextId);
    expect(token).toMatch(/^a2act_/);
    const fetched = await (await client(account.organizationId)).getTask({ tenant: "", id: task.id }, asCaller(token));
    expect(fetched.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const [stored] = await db.select().from(a2aTasks).where(eq(a2aTasks.id, task.id));
    expect(stored).toMatchObject({ organizationId: account.organizationId, state: "completed" });

    // Another organization's agent does not know this task.
    const other = await business();
    await expect((await client(other.organizationId)).getTask({ tenant: "", id: task.id })).rejects.toThrow(/not found/i);
    // Nor does an anonymous caller of this agent.
    await expect((await client(account.organizationId)).getTask({ tenant: "", id: task.id })).rejects.toThrow(/not found/i);
    // A completed task cannot be canceled.
    await expect((await client(account.organizationId)).cancelTask({ tenant: "", id: task.id, metadata: undefined }, asCaller(token))).rejects.toThrow(/not cancelable/i);
  });

  it("lands every exchange in Call History as a conversation with an agent, one per context", async () => {
    const account = await business();
    const first = await ask(account.organizationId, "Do you take walk-ins?", { sender: { name: "Booking Bot", agentUrl: "https://bots.example/booking" } });
    await ask(account.organizationId, "And on Sundays?", { sender: { name: "Booking Bot", agentUrl: "https://bots.example/booking" } }, first.contextId);

    const history = await call(historyRoute, "GET", "/api/call-history", { sessionId: account.sessionId });
    const items = history.body.items.filter((i: { channel?: string }) => i.channel === "agent");
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ kind: "call", direction: "inbound", callerName: "Booking Bot", from: "https://bots.example/booking", status: "completed" });
    const detail = await call(callRoute, "GET", `/api/calls/${items[0].id}`, { sessionId: account.sessionId, params: { id: items[0].id } });
    expect(detail.body.channel).toBe("agent");
    expect(detail.body.transcript.map((t: { speaker: string; text: string }) => [t.speaker, t.text.slice(0, 22)])).toEqual([
      ["agent", "Do you take walk-ins?"],
      ["assistant", expect.any(String)],
      ["agent", "And on Sundays?"],
      ["assistant", expect.any(String)],
    ]);
    expect(detail.body.assistant).toMatchObject({ name: "Robin" });
  });

  it("knows the staff by name, as on the phone: \"is Dr. Ramirez in?\" is nobody there, naming who is", async () => {
    const account = await business();
    await createResource(await getDb(), account.organizationId, { name: "Dr. Chen", kind: "staff", followsBusinessHours: true, weeklyHours: null, isActive: true });
    const task = await ask(account.organizationId, "Is Dr. Ramirez in today?");
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(textOf(task.status?.message)).toMatch(/anyone named Ramirez.*Dr\. Chen/);
  });

  it("takes a message for the business (the leave_message skill), free of charge", async () => {
    const account = await business();
    const db = await getDb();
    const before = await getCreditBalance(db, account.organizationId);
    const result = await (await client(account.organizationId)).sendMessage({
      tenant: "",
      message: {
        ...userMessage("Please call Sam Park back about the crown fitting.", { skill: "leave_message", agentName: "Concierge" }),
        parts: [
          { content: { $case: "text", value: "Please call Sam Park back about the crown fitting." }, metadata: undefined, filename: "", mediaType: "text/plain" },
          { content: { $case: "data", value: { name: "Sam Park", callbackNumber: "+14155550123" } }, metadata: undefined, filename: "", mediaType: "application/json" },
        ],
      },
      configuration: undefined,
      metadata: undefined,
    });
    expect(textOf((result as Task).status?.message)).toBe("Thank you. Your message has been passed on to the team, who will follow up.");
    expect(await getCreditBalance(db, account.organizationId)).toBe(before);
    const [row] = await db.select().from(calls).where(and(eq(calls.organizationId, account.organizationId), eq(calls.channel, "agent")));
    expect(row.summary).toBe("Message from Concierge (name: Sam Park, callback: +14155550123): Please call Sam Park back about the crown fitting.");
    expect(row.intent).toBe("message");
  });

  it("books in conversation (the book_appointment skill): free times only, read back, booked on yes, in one context", async () => {
    const account = await business();
    const db = await getDb();
    await setProfile(account.organizationId, { timezone: "America/New_York", weeklyHours: everyDay("09:00", "17:00") });
    await createService(db, account.organizationId, { name: "Cleaning", description: "", durationMinutes: 30, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, priceCents: null, priceText: null, bookable: true, isActive: true, resourceIds: [] });
    const day = toZoned(new Date(Date.now() + 3 * 86_400_000), "America/New_York").date;
    const spokenDate = new Intl.DateTimeFormat("en-US", { timeZone: "UTC", weekday: "long", month: "long", day: "numeric", year: "numeric" }).format(new Date(`${day}T12:00:00Z`));
    const first = await (await client(account.organizationId)).sendMessage({
      tenant: "",
      message: {
        ...userMessage(`A cleaning on ${day} at 10 am please.`, { skill: "book_appointment", agentName: "Concierge" }),
        parts: [
          { content: { $case: "text", value: `A cleaning on ${day} at 10 am please.` }, metadata: undefined, filename: "", mediaType: "text/plain" },
          { content: { $case: "data", value: { customerName: "Sam Park", customerPhone: "+14155550123" } }, metadata: undefined, filename: "", mediaType: "application/json" },
        ],
      },
      configuration: undefined,
      metadata: undefined,
    });
    const task = remember(first as Task);
    const [weekday, rest] = [spokenDate.split(", ")[0], spokenDate.split(", ").slice(1).join(", ")];
    expect(textOf(task.status?.message)).toBe(`Just to confirm, I have a Cleaning on ${weekday}, ${rest} at 10:00 AM for Sam Park. Shall I book it?`);
    expect((await db.select().from(appointments).where(eq(appointments.organizationId, account.organizationId))).map((r) => r.status)).toEqual(["held"]);
    const yes = await ask(account.organizationId, "Yes, please book it.", { skill: "book_appointment" }, task.contextId);
    expect(textOf(yes.status?.message)).toBe(`You're booked: Cleaning on ${weekday}, ${rest} at 10:00 AM for Sam Park. Is there anything else I can help you with?`);
    const booked = await db.select().from(appointments).where(eq(appointments.organizationId, account.organizationId));
    expect(booked.map((r) => [r.status, r.source, r.customerPhone])).toEqual([["confirmed", "a2a", "+14155550123"]]);

    // Cancelling by a phone number needs proof of the number: a code texted to it, sent back later.
    const areaCode = 200 + Math.floor(Math.random() * 800);
    await db.insert(phoneNumbers).values({ id: crypto.randomUUID(), organizationId: account.organizationId, phoneNumber: `+1${areaCode}55501${String(Math.floor(Math.random() * 100)).padStart(2, "0")}`, friendlyName: "Front desk", provider: "simulated" });
    const cancel = await ask(account.organizationId, "Cancel the appointment of +14155550123.", { skill: "cancel_appointment" });
    expect(textOf(cancel.status?.message)).toBe(PROOF_TEXTS.codeSent("+14155550123"));
    expect(textOf(cancel.status?.message)).not.toContain("Sam Park");
    const [texted] = await db.select().from(messages).where(and(eq(messages.organizationId, account.organizationId), eq(messages.toNumber, "+14155550123"), eq(messages.direction, "outbound")));
    const code = /(\d{6}) is your code/.exec(texted.body)![1];
    const wrong = await ask(account.organizationId, code === "000000" ? "111111" : "000000", { skill: "cancel_appointment" }, cancel.contextId);
    expect(textOf(wrong.status?.message)).toBe(PROOF_TEXTS.wrongCode);
    // Another caller cannot use the code in its own conversation.
    const stranger = await ask(account.organizationId, `Cancel +14155550123, code ${code}`, { skill: "cancel_appointment" });
    expect(textOf(stranger.status?.message)).toBe(PROOF_TEXTS.codeSent("+14155550123"));
    const proven = await ask(account.organizationId, code, { skill: "cancel_appointment" }, cancel.contextId);
    expect(textOf(proven.status?.message)).toBe(`I see your Cleaning on ${weekday}, ${rest} at 10:00 AM for Sam Park. Shall I cancel it?`);
    const done = await ask(account.organizationId, "yes", { skill: "cancel_appointment" }, cancel.contextId);
    expect(textOf(done.status?.message)).toMatch(/ is cancelled\./);
    expect((await db.select().from(appointments).where(eq(appointments.organizationId, account.organizationId))).map((r) => r.status)).toEqual(["cancelled"]);
  });

  it("fails the task with the reason when it cannot answer: no assistant, unknown skill, no credits", async () => {
    const noAssistant = await business(false);
    const failed = await ask(noAssistant.organizationId, "Hello?");
    expect(failed.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(failed.status?.message)).toBe("This business has no active assistant to answer questions right now. Try leaving a message instead.");

    const account = await business();
    const unknown = await ask(account.organizationId, "Book me", { skill: "book_flight" });
    expect(unknown.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(unknown.status?.message)).toBe('This agent has no skill "book_flight". It offers: ask_question, leave_message, book_appointment, reschedule_appointment, cancel_appointment.');

    const db = await getDb();
    const balance = await getCreditBalance(db, account.organizationId);
    await changeCredits(db, account.organizationId, "adjustment", -balance, { reason: "test: empty the balance" });
    const broke = await ask(account.organizationId, "Are you open?");
    expect(broke.status?.state).toBe(TaskState.TASK_STATE_FAILED);
    expect(textOf(broke.status?.message)).toBe("The business cannot answer questions right now. Try leaving a message instead.");
    const history = await call(historyRoute, "GET", "/api/call-history", { sessionId: account.sessionId });
    expect(history.body.items.filter((i: { status: string; channel?: string }) => i.channel === "agent" && i.status === "failed").length).toBeGreaterThanOrEqual(1);
  });

  it("streams the task's events (SendStreamingMessage over server-sent events)", async () => {
    const account = await business();
    const events = [];
    for await (const event of (await client(account.organizationId)).sendMessageStream({
      tenant: "",
      message: userMessage("Where are you located?"),
      configuration: undefined,
      metadata: undefined,
    })) {
      events.push(event);
    }
    const cases = events.map((e) => e.payload?.$case);
    expect(cases[0]).toBe("task");
    expect(cases).toContain("artifactUpdate");
    const last = events.at(-1)!.payload;
    expect(last?.$case).toBe("statusUpdate");
    if (last?.$case === "statusUpdate") expect(last.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it("answers JSON-RPC errors: parse error, unsupported version, unknown method", async () => {
    const account = await business();
    const parse = await rpc(account.organizationId, "{not json");
    expect(parse.status).toBe(400);
    expect(parse.body.error.code).toBe(-32700);
    const version = await rpc(account.organizationId, { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "x" } }, { "a2a-version": "0.3" });
    expect(version.body.error.code).toBe(-32009);
    const method = await rpc(account.organizationId, { jsonrpc: "2.0", id: 2, method: "Teleport", params: {} });
    expect(method.body.error.code).toBe(-32601);
  });

  it("limits each caller to 30 requests a minute per agent (429 with Retry-After)", async () => {
    const account = await business();
    const ip = `198.51.100.${Math.floor(Math.random() * 200) + 1}`;
    const body = { jsonrpc: "2.0", id: 1, method: "GetTask", params: { id: "missing" } };
    for (let i = 0; i < 30; i++) expect((await rpc(account.organizationId, body, { [PEER_ADDRESS_HEADER]: ip })).status).toBe(200);
    const res = await fetch(agentBase(account.organizationId).replace(/\/$/, ""), {
      method: "POST",
      headers: { "content-type": "application/json", "a2a-version": "1.0", [PEER_ADDRESS_HEADER]: ip },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    // Another caller is not affected.
    expect((await rpc(account.organizationId, body, { [PEER_ADDRESS_HEADER]: "198.51.100.250" })).status).toBe(200);
  });
});

describe("one organization's console messaging another organization's agent", () => {
  it("registers the other business's Switchboard agent, sees it online, sends a request and stores the answer", async () => {
    const sender = await registerTestUser();
    const db = await getDb();
    await db.update(users).set({ role: "admin" }).where(eq(users.id, sender.id));
    const receiver = await business();

    const created = await call(createAgentRoute, "POST", "/api/a2a/agents", {
      sessionId: sender.sessionId,
      body: { name: "Harbor Dental", capabilities: "ask_question, leave_message", endpoint: agentBase(receiver.organizationId) },
    });
    const checked = await call(checkRoute, "POST", "/x", { sessionId: sender.sessionId, params: { id: created.body.id } });
    expect(checked.body).toMatchObject({ isOnline: true, card: { url: `${web.url}/api/a2a/orgs/${receiver.organizationId}`, streaming: true } });

    const queued = await call(messageRoute, "POST", "/x", {
      sessionId: sender.sessionId,
      params: { id: created.body.id },
      body: { type: "request", payload: { message: "What are your opening hours?" } },
    });
    expect(queued.status).toBe(202);
    await runJobsUntil([a2aDeliverJob], async () => (await db.select().from(a2aMessages).where(eq(a2aMessages.id, queued.body.id)))[0]?.status !== "queued");
    const [row] = await db.select().from(a2aMessages).where(eq(a2aMessages.id, queued.body.id));
    expect(row.status).toBe("answered");
    expect(row.answer).toMatchObject({ kind: "task", state: "completed" });
    expect(row.answer!.text.length).toBeGreaterThan(10);

    // The receiving business sees the exchange, with the sending organization as the caller.
    const history = await call(historyRoute, "GET", "/api/call-history", { sessionId: receiver.sessionId });
    const conversation = history.body.items.find((i: { channel?: string }) => i.channel === "agent");
    expect(conversation.from).toBe(`${web.url}/api/a2a/orgs/${sender.organizationId}`);
  });
});
