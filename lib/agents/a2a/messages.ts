import "server-only";
import crypto from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { Role, TaskState, type Message, type Part, type Task } from "@a2a-js/sdk";
import type { Db } from "@/db/client";
import { a2aAgents, a2aMessages, organizations, type A2aAnswer } from "@/db/schema";
import { badRequest, conflict, notFound } from "@/lib/platform/http/errors";
import type { RequestContext } from "@/lib/identity/http/route";
import { enqueue } from "@/lib/platform/jobs/queue";
import { defineJob } from "@/lib/platform/jobs/types";
import { consoleScope, scopedTo } from "@/lib/identity/organizations/console-scope";
import { orgAgentUrl } from "./agent/card";
import { connectA2a } from "./client";
import type { SendMessageInput } from "./schema";

/**
 * Messages to A2A agents (advanced spec §3 "A2A message", §7): stored as queued, then delivered by
 * the `a2a.deliver` job as an A2A `SendMessage` through the SDK client, retried with backoff
 * (15 s, 30 s, 60 s) and failed after the last attempt. A request waits for the agent's answer
 * (a message, or a task — followed with GetTask until it settles); a notify is fire and forget
 * (`returnImmediately`), delivered once the agent accepts it.
 */
export const DELIVERY_RETRY_LIMIT = 3;
export const DELIVERY_RETRY_DELAY_SECONDS = 15;
/** GetTask polls of a request answered with a task still working: 10 s, 20 s, 40 s, 80 s, 160 s. */
export const FOLLOW_RETRY_LIMIT = 5;

export type A2aMessageDto = {
  id: string;
  targetAgentId: string;
  targetAgentName: string | null;
  organizationId: string;
  type: "request" | "notify";
  payload: Record<string, unknown>;
  status: "queued" | "delivered" | "answered" | "failed";
  attempts: number;
  lastError: string | null;
  answer: A2aAnswer | null;
  createdAt: string;
  deliveredAt: string | null;
};

function toDto(row: typeof a2aMessages.$inferSelect, targetAgentName: string | null): A2aMessageDto {
  return {
    id: row.id,
    targetAgentId: row.targetAgentId,
    targetAgentName,
    organizationId: row.organizationId,
    type: row.type,
    payload: row.payload,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    answer: row.answer ?? null,
    createdAt: row.createdAt.toISOString(),
    deliveredAt: row.deliveredAt ? row.deliveredAt.toISOString() : null,
  };
}

/** Queues a message to an online agent the caller sees; answers 202 with the stored message. */
export async function sendMessage(db: Db, ctx: RequestContext, targetAgentId: string, input: SendMessageInput): Promise<A2aMessageDto> {
  if (input.targetAgentId && input.targetAgentId !== targetAgentId) {
    throw badRequest("targetAgentId must be the agent in the URL", { targetAgentId: "targetAgentId must be the agent in the URL" });
  }
  const [agent] = await db
    .select({ id: a2aAgents.id, name: a2aAgents.name, organizationId: a2aAgents.organizationId, isOnline: a2aAgents.isOnline, endpoint: a2aAgents.endpoint })
    .from(a2aAgents)
    .where(and(scopedTo(a2aAgents.organizationId, consoleScope(ctx)), eq(a2aAgents.id, targetAgentId)))
    .limit(1);
  if (!agent) throw notFound("A2A agent");
  if (!agent.isOnline || !agent.endpoint) throw conflict(`${agent.name} is offline: messages can only be sent to online agents`);
  const [row] = await db
    .insert(a2aMessages)
    .values({
      id: crypto.randomUUID(),
      organizationId: agent.organizationId,
      targetAgentId: agent.id,
      type: input.type,
      payload: input.payload,
      createdBy: ctx.userId,
    })
    .returning();
  await enqueue(db, a2aDeliverJob, { messageId: row.id }, { singletonKey: row.id });
  return toDto(row, agent.name);
}

export async function listMessages(db: Db, ctx: RequestContext, limit = 50): Promise<A2aMessageDto[]> {
  const rows = await db
    .select({ message: a2aMessages, agentName: a2aAgents.name })
    .from(a2aMessages)
    .leftJoin(a2aAgents, eq(a2aAgents.id, a2aMessages.targetAgentId))
    .where(scopedTo(a2aMessages.organizationId, consoleScope(ctx)))
    .orderBy(desc(a2aMessages.createdAt), desc(a2aMessages.id))
    .limit(limit);
  return rows.map((r) => toDto(r.message, r.agentName));
}

const taskStateNames: Partial<Record<TaskState, string>> = {
  [TaskState.TASK_STATE_SUBMITTED]: "submitted",
  [TaskState.TASK_STATE_WORKING]: "working",
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
  [TaskState.TASK_STATE_REJECTED]: "rejected",
  [TaskState.TASK_STATE_AUTH_REQUIRED]: "auth-required",
};
const SETTLED = new Set(["completed", "failed", "canceled", "input-required", "rejected", "auth-required"]);

export function taskStateName(state: TaskState | undefined): string {
  return (state !== undefined && taskStateNames[state]) || "unknown";
}

export function partsText(parts: Part[] | undefined): string {
  return (parts ?? [])
    .map((part) => {
      const content = part.content;
      if (!content) return "";
      if (content.$case === "text") return content.value;
      if (content.$case === "data") return JSON.stringify(content.value);
      if (content.$case === "url") return content.value;
      return `[${part.mediaType || "file"}]`;
    })
    .filter(Boolean)
    .join("\n");
}

/** The stored form of what the agent answered. */
export function summarizeAnswer(result: Message | Task): A2aAnswer {
  if ("messageId" in result) {
    return { kind: "message", text: partsText(result.parts).slice(0, 10_000), contextId: result.contextId || undefined, taskId: result.taskId || undefined };
  }
  const status = partsText(result.status?.message?.parts);
  const artifacts = (result.artifacts ?? []).map((a) => partsText(a.parts)).filter(Boolean);
  const text = [status, ...artifacts.filter((a) => a !== status)].filter(Boolean).join("\n");
  const token = (result.metadata as Record<string, unknown> | undefined)?.callerToken;
  return {
    kind: "task",
    text: text.slice(0, 10_000),
    taskId: result.id,
    contextId: result.contextId,
    state: taskStateName(result.status?.state),
    ...(typeof token === "string" && token.length <= 200 ? { callerToken: token } : {}),
  };
}

function describe(error: unknown): string {
  const message = error instanceof Error ? `${error.message}${error.cause instanceof Error ? `: ${error.cause.message}` : ""}` : String(error);
  return message.replace(/\s+/g, " ").slice(0, 500);
}

function textOf(payload: Record<string, unknown>): string {
  for (const key of ["message", "text", "question"]) if (typeof payload[key] === "string" && payload[key]) return payload[key] as string;
  return JSON.stringify(payload);
}

async function senderOf(db: Db, organizationId: string) {
  const [org] = await db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));
  return { name: org?.name ?? "Switchboard", agentUrl: orgAgentUrl(organizationId), via: "Switchboard" };
}

/** One delivery attempt; throws to be retried (until the last attempt, which records the failure). */
export async function deliverMessage(db: Db, messageId: string, attempt: number, retryLimit = DELIVERY_RETRY_LIMIT): Promise<void> {
  const [row] = await db.select().from(a2aMessages).where(eq(a2aMessages.id, messageId)).limit(1);
  if (!row || row.status !== "queued") return;
  const [agent] = await db.select({ endpoint: a2aAgents.endpoint }).from(a2aAgents).where(eq(a2aAgents.id, row.targetAgentId)).limit(1);
  if (!agent?.endpoint) {
    await db.update(a2aMessages).set({ status: "failed", lastError: "The agent has no endpoint" }).where(eq(a2aMessages.id, row.id));
    return;
  }
  await db.update(a2aMessages).set({ attempts: attempt }).where(eq(a2aMessages.id, row.id));
  try {
    const client = await connectA2a(agent.endpoint);
    const message: Message = {
      messageId: row.id,
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [
        { content: { $case: "text", value: textOf(row.payload) }, metadata: undefined, filename: "", mediaType: "text/plain" },
        { content: { $case: "data", value: row.payload }, metadata: undefined, filename: "", mediaType: "application/json" },
      ],
      metadata: { sender: await senderOf(db, row.organizationId), type: row.type },
      extensions: [],
      referenceTaskIds: [],
    };
    const result = await client.sendMessage({
      tenant: "",
      message,
      configuration: { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: row.type === "notify" },
      metadata: undefined,
    });
    const answer = summarizeAnswer(result);
    const settled = answer.kind === "message" || SETTLED.has(answer.state ?? "");
    const status = row.type === "request" && settled ? "answered" : "delivered";
    await db.update(a2aMessages).set({ status, answer, lastError: null, deliveredAt: new Date() }).where(eq(a2aMessages.id, row.id));
    if (row.type === "request" && !settled && answer.taskId) {
      await enqueue(db, a2aFollowTaskJob, { messageId: row.id }, { startAfter: new Date(Date.now() + 10_000), singletonKey: `follow:${row.id}` });
    }
  } catch (error) {
    const lastError = describe(error);
    if (attempt > retryLimit) {
      await db.update(a2aMessages).set({ status: "failed", lastError }).where(eq(a2aMessages.id, row.id));
      return;
    }
    await db.update(a2aMessages).set({ lastError }).where(eq(a2aMessages.id, row.id));
    throw new Error(`A2A delivery of ${row.id} failed (attempt ${attempt}): ${lastError}`);
  }
}

export const a2aDeliverJob = defineJob<{ messageId: string }>({
  name: "a2a.deliver",
  retryLimit: DELIVERY_RETRY_LIMIT,
  retryDelaySeconds: DELIVERY_RETRY_DELAY_SECONDS,
  async handler({ messageId }, { db, job }) {
    await deliverMessage(db, messageId, job.attempt);
  },
});

/** Reads a delivered request's task again until it settles; the answer is updated each time. */
export async function followTask(db: Db, messageId: string): Promise<"settled" | "pending" | "gone"> {
  const [row] = await db.select().from(a2aMessages).where(eq(a2aMessages.id, messageId)).limit(1);
  if (!row || row.status !== "delivered" || !row.answer?.taskId) return "gone";
  const [agent] = await db.select({ endpoint: a2aAgents.endpoint }).from(a2aAgents).where(eq(a2aAgents.id, row.targetAgentId)).limit(1);
  if (!agent?.endpoint) return "gone";
  const client = await connectA2a(agent.endpoint);
  // An agent that keeps tasks to their caller (Switchboard's own does) issued a token with the first answer.
  const token = row.answer.callerToken;
  const task = await client.getTask({ tenant: "", id: row.answer.taskId }, token ? { serviceParameters: { authorization: `Bearer ${token}` } } : undefined);
  const answer = { ...summarizeAnswer(task), ...(token ? { callerToken: token } : {}) };
  const settled = SETTLED.has(answer.state ?? "");
  await db.update(a2aMessages).set({ answer, ...(settled ? { status: "answered" as const } : {}) }).where(eq(a2aMessages.id, row.id));
  return settled ? "settled" : "pending";
}

export const a2aFollowTaskJob = defineJob<{ messageId: string }>({
  name: "a2a.follow-task",
  retryLimit: FOLLOW_RETRY_LIMIT,
  retryDelaySeconds: 10,
  async handler({ messageId }, { db }) {
    if ((await followTask(db, messageId)) === "pending") throw new Error(`The task of A2A message ${messageId} is still running`);
  },
});
