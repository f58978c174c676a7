import "server-only";
import { eq } from "drizzle-orm";
import { A2A_VERSION_HEADER, Extensions, formatSSEErrorEvent, formatSSEEvent, HTTP_EXTENSION_HEADER, SSE_HEADERS } from "@a2a-js/sdk";
import {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  validateVersion,
} from "@a2a-js/sdk/server";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { clientIp } from "@/lib/platform/http/client-ip";
import { HttpError, notFound } from "@/lib/platform/http/errors";
import { readBodyText } from "@/lib/platform/http/parse";
import { hitRateLimit } from "@/lib/platform/http/rate-limit";
import { A2aCaller, CALLER_TOKEN_HEADER, CALLER_TOKEN_METADATA_KEY, issueCallerToken, presentedCallerToken, verifyCallerToken } from "./caller";
import { buildOrgAgentCard } from "./card";
import { OrgAgentExecutor } from "./executor";
import { orgAgentSkills } from "./skills";
import { DbTaskStore } from "./task-store";

/**
 * Switchboard as an A2A agent in a Next route handler: the SDK's DefaultRequestHandler and
 * JsonRpcTransportHandler (framework-agnostic) behind a small web-standard adapter — the express
 * adapter's behaviour (content-type guard, A2A-Version check, JSON or server-sent events, JSON-RPC
 * error envelopes) without express. Rate-limited per caller address and per organization.
 */
export const A2A_RATE_LIMIT = { perIpPerMinute: 30, perOrganizationPerMinute: 300 };

/** One event-bus manager per process: CancelTask reaches a task this process is working on. */
const globalForA2a = globalThis as unknown as { __switchboardA2aBuses?: DefaultExecutionEventBusManager };
function busManager() {
  globalForA2a.__switchboardA2aBuses ??= new DefaultExecutionEventBusManager();
  return globalForA2a.__switchboardA2aBuses;
}

async function organizationOf(db: Db, organizationId: string) {
  const [org] = await db.select({ id: organizations.id, name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId)).limit(1);
  if (!org) throw notFound("Agent");
  return org;
}

/** GET …/.well-known/agent-card.json */
export async function orgAgentCardResponse(db: Db, organizationId: string): Promise<Response> {
  const card = buildOrgAgentCard(await organizationOf(db, organizationId), orgAgentSkills);
  return Response.json(card, { headers: { "cache-control": "public, max-age=300" } });
}

type RpcId = string | number | null;

function rpcError(id: RpcId, code: number, message: string, status = 200, headers: Record<string, string> = {}): Response {
  return Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status, headers });
}

/** JSON-RPC 2.0 §4 and §5.1: what makes a request object valid (else -32600 Invalid Request). */
function invalidRequestReason(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return "the request must be a JSON object";
  if (Array.isArray(body)) return "batch requests are not supported; send one request object";
  const request = body as Record<string, unknown>;
  if (request.jsonrpc !== "2.0") return 'jsonrpc must be exactly "2.0"';
  if (typeof request.method !== "string" || request.method === "") return "method must be a non-empty string";
  if ("id" in request && !(request.id === null || typeof request.id === "string" || (typeof request.id === "number" && Number.isInteger(request.id)))) {
    return "id must be a string, an integer or null";
  }
  if ("params" in request && (typeof request.params !== "object" || request.params === null)) return "params must be an object";
  return null;
}

const SEND_METHODS = new Set(["SendMessage", "SendStreamingMessage"]);

/** What A2A's Message requires beyond the SDK's lenient parsing (-32602 Invalid params). */
function invalidMessageReason(params: Record<string, unknown> | undefined): string | null {
  const message = params?.message;
  if (typeof message !== "object" || message === null || Array.isArray(message)) return "params.message is required";
  const m = message as Record<string, unknown>;
  if (m.role !== "ROLE_USER" && m.role !== "ROLE_AGENT") return 'params.message.role is required ("ROLE_USER" or "ROLE_AGENT")';
  if (typeof m.messageId !== "string" || !m.messageId) return "params.message.messageId is required";
  if (!Array.isArray(m.parts) || m.parts.length === 0) return "params.message.parts must hold at least one part";
  return null;
}

/** The caller token goes to the caller with the first answer: in the answer's metadata. */
function withCallerToken(result: unknown, token: string): unknown {
  if (!result || typeof result !== "object") return result;
  const payload = result as Record<string, Record<string, unknown> | undefined>;
  for (const kind of ["task", "message", "statusUpdate", "artifactUpdate"]) {
    const item = payload[kind];
    if (item && typeof item === "object") {
      item.metadata = { ...((item.metadata as Record<string, unknown> | undefined) ?? {}), [CALLER_TOKEN_METADATA_KEY]: token };
      return result;
    }
  }
  return result;
}

/** POST /api/a2a/orgs/{organizationId}: one JSON-RPC request (SendMessage, SendStreamingMessage, GetTask, ListTasks, CancelTask…). */
export async function handleOrgAgentRequest(db: Db, req: Request, organizationId: string): Promise<Response> {
  const org = await organizationOf(db, organizationId);
  const ip = clientIp(req.headers) ?? "unknown";
  try {
    await hitRateLimit(db, `a2a:ip:${org.id}:${ip}`, A2A_RATE_LIMIT.perIpPerMinute, 60_000, "Too many requests to this agent. Please slow down.");
    await hitRateLimit(db, `a2a:org:${org.id}`, A2A_RATE_LIMIT.perOrganizationPerMinute, 60_000, "This agent is receiving too many requests. Please try again shortly.");
  } catch (error) {
    // A JSON-RPC client reads a JSON-RPC error body, whatever the HTTP status.
    if (error instanceof HttpError && error.status === 429) {
      return rpcError(null, A2A_RATE_LIMITED_CODE, error.message, 429, error.headers ?? {});
    }
    throw error;
  }

  const mediaType = (req.headers.get("content-type") ?? "application/json").split(";", 1)[0].trim().toLowerCase();
  if (mediaType !== "application/json") return rpcError(null, -32005, `Content type ${mediaType} is not supported; send application/json`, 415);
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readBodyText(req));
  } catch {
    return rpcError(null, -32700, "Parse error: the body must be JSON", 400);
  }
  const invalid = invalidRequestReason(parsed);
  if (invalid) {
    const id = (parsed as { id?: unknown } | null)?.id;
    return rpcError(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)) ? id : null, -32600, `Invalid Request: ${invalid}`);
  }
  const body = parsed as { id?: RpcId; method: string; params?: Record<string, unknown> };
  const id: RpcId = body.id ?? null;

  const presented = presentedCallerToken(req.headers);
  if (presented !== null && !verifyCallerToken(org.id, presented)) {
    return rpcError(id, A2A_CALLER_REFUSED_CODE, "The caller token was refused: present the callerToken this agent issued with its first answer", 401, {
      "www-authenticate": 'Bearer realm="a2a", error="invalid_token"',
    });
  }
  const caller = presented ? new A2aCaller(presented, false) : new A2aCaller(issueCallerToken(org.id), true);
  const issuesToken = caller.issued && SEND_METHODS.has(body.method);

  if (SEND_METHODS.has(body.method)) {
    const reason = invalidMessageReason(body.params);
    if (reason) return rpcError(id, -32602, `Invalid params: ${reason}`);
  }

  const card = buildOrgAgentCard(org, orgAgentSkills);
  const store = new DbTaskStore(db, org.id);
  const handler = new DefaultRequestHandler(card, store, new OrgAgentExecutor(db, org.id), busManager());
  const headers: Record<string, string> = {};
  req.headers.forEach((value, key) => {
    headers[key] = value;
  });
  const responseHeaders: Record<string, string> = issuesToken ? { [CALLER_TOKEN_HEADER]: caller.token } : {};
  try {
    const context = defaultServerCallContextBuilder({
      extensions: Extensions.parseServiceParameter(req.headers.get(HTTP_EXTENSION_HEADER) ?? undefined),
      user: caller,
      headers,
      requestedVersion: req.headers.get(A2A_VERSION_HEADER) ?? undefined,
    });
    validateVersion(context.requestedVersion, card, "JSONRPC");
    // A context id is not a key to another caller's conversation.
    const contextId = (body.params?.message as { contextId?: unknown } | undefined)?.contextId;
    if (SEND_METHODS.has(body.method) && typeof contextId === "string" && contextId && (await store.contextTakenByAnother(contextId, context))) {
      return rpcError(id, -32602, "Invalid params: this contextId belongs to another caller; start a new conversation without a contextId");
    }
    const result = await new JsonRpcTransportHandler(handler).handle(body, context);
    if (typeof (result as AsyncGenerator)?.[Symbol.asyncIterator] !== "function") {
      const response = result as { result?: unknown; error?: { code: number; message: string } };
      if (response.error?.code === -32603) response.error = { code: -32603, message: INTERNAL_ERROR_MESSAGE };
      if (issuesToken && response.result) response.result = withCallerToken(response.result, caller.token);
      return Response.json(response, { headers: responseHeaders });
    }

    const events = result as AsyncGenerator<{ result?: unknown }>;
    const encoder = new TextEncoder();
    let first = true;
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await events.next();
          if (next.done) return controller.close();
          const event = next.value;
          if (first && issuesToken && event.result) event.result = withCallerToken(event.result, caller.token);
          first = false;
          controller.enqueue(encoder.encode(formatSSEEvent(event)));
        } catch (error) {
          const mapped = publicRpcError(error);
          controller.enqueue(encoder.encode(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: mapped })));
          controller.close();
        }
      },
      async cancel() {
        await events.return(undefined);
      },
    });
    return new Response(stream, { headers: { ...SSE_HEADERS, ...responseHeaders } });
  } catch (error) {
    const mapped = publicRpcError(error);
    return Response.json({ jsonrpc: "2.0", id, error: mapped }, { status: mapped.code === -32603 ? 500 : 200 });
  }
}

const INTERNAL_ERROR_MESSAGE = "Internal error: the agent could not handle this request";
/** JSON-RPC server-error codes (-32000 to -32099) of our own: rate limited, caller token refused. */
export const A2A_RATE_LIMITED_CODE = -32029;
export const A2A_CALLER_REFUSED_CODE = -32041;

/** The SDK's mapping, minus internals: an unexpected error is logged by name and answered generically. */
function publicRpcError(error: unknown): { code: number; message: string; data?: unknown } {
  const mapped = JsonRpcTransportHandler.mapToJSONRPCError(error);
  if (mapped.code !== -32603) return mapped;
  console.error("[a2a] request failed", error instanceof Error ? error.name : typeof error);
  return { code: -32603, message: INTERNAL_ERROR_MESSAGE };
}
