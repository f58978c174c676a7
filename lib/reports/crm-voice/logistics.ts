import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { logisticsRequests, type LogisticsKind } from "@/db/schema";
import { notFound } from "@/lib/platform/http/errors";

/** Logistics requests the assistant captured (orders, deliveries, pickups): the CRM voice list. */

export type LogisticsRequest = {
  id: string;
  kind: LogisticsKind;
  description: string;
  contact: string | null;
  source: "call" | "sms" | "test";
  status: "pending" | "completed";
  callId: string | null;
  createdAt: string;
  completedAt: string | null;
};

export function toRequest(row: typeof logisticsRequests.$inferSelect): LogisticsRequest {
  return {
    id: row.id,
    kind: row.kind,
    description: row.description,
    contact: row.contact,
    source: row.source,
    status: row.status,
    callId: row.callId,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
  };
}

/** What kind of request the words describe: a delivery, a pickup, or else an order. */
export function logisticsKindOf(text: string): LogisticsKind {
  const t = text.toLowerCase();
  if (/\bdeliver(y|ies|ed|ing)?\b|\bship(ping|ped)?\b|\bsend (it|them) to\b/.test(t)) return "delivery";
  if (/\bpick(ing)?[ -]?up\b|\bcollect(ion)?\b/.test(t)) return "pickup";
  return "order";
}

/** Captures a request the assistant heard (a call, a text, or the CRM test) for the team's list. */
export async function captureLogisticsRequest(
  db: Db,
  organizationId: string,
  input: { text: string; source: "call" | "sms" | "test"; contact?: string | null; callId?: string | null; messageId?: string | null },
): Promise<LogisticsRequest> {
  const [row] = await db
    .insert(logisticsRequests)
    .values({
      id: crypto.randomUUID(),
      organizationId,
      kind: logisticsKindOf(input.text),
      description: input.text.trim().slice(0, 1000),
      contact: input.contact ?? null,
      source: input.source,
      callId: input.callId ?? null,
      messageId: input.messageId ?? null,
    })
    .returning();
  return toRequest(row);
}

export async function setLogisticsStatus(db: Db, organizationId: string, id: string, status: "pending" | "completed"): Promise<LogisticsRequest> {
  const [row] = await db
    .update(logisticsRequests)
    .set({ status, completedAt: status === "completed" ? new Date() : null })
    .where(and(eq(logisticsRequests.id, id), eq(logisticsRequests.organizationId, organizationId)))
    .returning();
  if (!row) throw notFound("Logistics request");
  return toRequest(row);
}

