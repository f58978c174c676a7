import "server-only";
import { eq } from "drizzle-orm";
import { A2A_VERSION_HEADER, Extensions, formatSSEErrorEvent, formatSSEEvent, HTTP_EXTENSION_HEADER, SSE_HEADERS } from "@a2a-js/sdk";
import {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  validateVersion,
} from "@a2a-js/sdk/server";
import type { Db } from "@/db/client";
import { organizations } from "@/db/schema";
import { clientIp } from "@/lib/http/client-ip";
import { notFound } from "@/lib/http/errors";
import { readBodyText } from "@/lib/http/parse";
import { hitRateLimit } from "@/lib/http/rate-limit";
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

function rpcError(id: unknown, code: number, message: string, status = 200): Response {
  return Response.json({ jsonrpc: "2.0", id: typeof id === "string" || typeof id === "number" ? id : null, error: { code, message } }, { status });
}

/** POST /api/a2a/orgs/{organizationId}: one JSON-RPC request (SendMessage, SendStreamingMessage, GetTask, CancelTask…). */
export async function handleOrgAgentRequest(db: Db, req: Request, organizationId: string): Promise<Response> {
  const org = await organizationOf(db, organizationId);
  const ip = clientIp(req.headers) ?? "unknown";
  await hitRateLimit(db, `a2a:ip:${org.id}:${ip}`, A2A_RATE_LIMIT.perIpPerMinute, 60_000, "Too many requests to this agent. Please slow down.");
  await hitRateLimit(db, `a2a:org:${org.id}`, A2A_RATE_LIMIT.perOrganizationPerMinute, 60_000, "This agent is receiving too many requests. Please try again shortly.");

  const mediaType = (req.headers.get("content-type") ?? "application/json").split(";", 1)[0].trim().toLowerCase();
  if (mediaType !== "application/json") return rpcError(null, -32005, `Content type ${mediaType} is not supported; send application/json`, 415);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(await readBodyText(req)) as Record<string, unknown>;
  } catch {
    return rpcError(null, -32700, "Parse error: the body must be JSON", 400);
  }

  const card = buildOrgAgentCard(org, orgAgentSkills);
  const handler = new DefaultRequestHandler(card, new DbTaskStore(db, org.id), new OrgAgentExecutor(db, org.id), busManager());
  const headers: Record<string, string> = {};
  req.headers.forEach((value, key) => {
    headers[key] = value;
  });
  try {
    const context = defaultServerCallContextBuilder({
      extensions: Extensions.parseServiceParameter(req.headers.get(HTTP_EXTENSION_HEADER) ?? undefined),
      user: new UnauthenticatedUser(),
      headers,
      requestedVersion: req.headers.get(A2A_VERSION_HEADER) ?? undefined,
    });
    validateVersion(context.requestedVersion, card, "JSONRPC");
    const result = await new JsonRpcTransportHandler(handler).handle(body, context);
    if (typeof (result as AsyncGenerator)?.[Symbol.asyncIterator] !== "function") return Response.json(result);

    const events = result as AsyncGenerator<unknown>;
    const encoder = new TextEncoder();
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await events.next();
          if (next.done) return controller.close();
          controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
        } catch (error) {
          const mapped = JsonRpcTransportHandler.mapToJSONRPCError(error);
          controller.enqueue(encoder.encode(formatSSEErrorEvent({ jsonrpc: "2.0", id: (body.id as string | number | null) ?? null, error: mapped })));
          controller.close();
        }
      },
      async cancel() {
        await events.return(undefined);
      },
    });
    return new Response(stream, { headers: SSE_HEADERS });
  } catch (error) {
    const mapped = JsonRpcTransportHandler.mapToJSONRPCError(error);
    if (mapped.code === -32603) console.error("[a2a] request failed", error);
    return Response.json({ jsonrpc: "2.0", id: (body.id as string | number | null) ?? null, error: mapped }, { status: mapped.code === -32603 ? 500 : 200 });
  }
}
