import "server-only";
import { and, desc, eq, inArray, isNotNull, ne } from "drizzle-orm";
import type { Db } from "@/db/client";
import { integrationConnections, tasks, webhookDeliveries } from "@/db/schema";
import { defineJob } from "@/lib/platform/jobs/types";
import { isOAuthConnection } from "./oauth";
import { accessTokenFor } from "@/lib/platform/outbound/oauth-grants";
import { resolveProvider } from "@/lib/platform/outbound/oauth-providers";
import { ProviderError } from "@/lib/platform/outbound/provider-http";
import { asanaTaskCompleted } from "./providers/asana";

/**
 * "Completing it there completes it here": every 2 minutes, for each organization with Asana
 * connected, the Asana tasks made from receptionist tasks still open here are read back (the
 * delivery log holds which Asana task each one became); a completed one closes its task here.
 * At most PER_RUN tasks per organization per run, the newest first.
 */
const PER_RUN = 100;

export async function pollAsanaCompletions(db: Db): Promise<{ checked: number; completed: number }> {
  const provider = resolveProvider("asana");
  const result = { checked: 0, completed: 0 };
  if (!provider) return result;
  const connections = (
    await db.select().from(integrationConnections).where(and(eq(integrationConnections.integration, "asana"), eq(integrationConnections.connected, true)))
  ).filter(isOAuthConnection);
  for (const connection of connections) {
    const made = await db
      .select({ payload: webhookDeliveries.payload, externalId: webhookDeliveries.externalId })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.organizationId, connection.organizationId),
          eq(webhookDeliveries.connectionId, connection.id),
          eq(webhookDeliveries.event, "task.created"),
          eq(webhookDeliveries.status, "delivered"),
          isNotNull(webhookDeliveries.externalId),
        ),
      )
      .orderBy(desc(webhookDeliveries.createdAt))
      .limit(1000);
    const byTask = new Map(made.map((d) => [String((d.payload as { taskId?: string }).taskId), d.externalId!]));
    if (!byTask.size) continue;
    const open = await db
      .select({ id: tasks.id })
      .from(tasks)
      .where(and(eq(tasks.organizationId, connection.organizationId), ne(tasks.status, "done"), inArray(tasks.id, [...byTask.keys()])))
      .orderBy(desc(tasks.createdAt))
      .limit(PER_RUN);
    if (!open.length) continue;
    let token: string;
    try {
      token = await accessTokenFor(db, connection);
    } catch (error) {
      if (error instanceof ProviderError) continue; // revoked (the card says Reconnect) or down: next run
      throw error;
    }
    for (const { id } of open) {
      result.checked += 1;
      let completed: boolean;
      try {
        completed = await asanaTaskCompleted(provider.apiBase, token, byTask.get(id)!);
      } catch (error) {
        if (error instanceof ProviderError) break; // rate limited or down: the next run picks up from here
        throw error;
      }
      if (!completed) continue;
      const now = new Date();
      const [closed] = await db
        .update(tasks)
        .set({ status: "done", doneAt: now, snoozedUntil: null, updatedAt: now })
        .where(and(eq(tasks.id, id), eq(tasks.organizationId, connection.organizationId), ne(tasks.status, "done")))
        .returning({ id: tasks.id });
      if (closed) result.completed += 1;
    }
  }
  return result;
}

export const asanaPollJob = defineJob({
  name: "integrations.asana-poll",
  everySeconds: 120,
  retryLimit: 0,
  async handler(_data, { db }) {
    await pollAsanaCompletions(db);
  },
});
