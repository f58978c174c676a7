import { z } from "zod";
import { httpUrlField, metadataField, organizationIdField, splitList } from "@/lib/agents/mcp/schema";

/**
 * Payloads of the A2A console (advanced spec §5 "Create A2A agent form", "Send A2A message"),
 * shared by the dialogs and the routes. Client-safe.
 */
const capabilitiesField = z
  .union([z.array(z.string({ error: "Each capability must be text" })), z.string()], "Capabilities are required")
  .transform((value) => (Array.isArray(value) ? value.map((c) => c.trim()).filter(Boolean) : splitList(value)))
  .pipe(
    z
      .array(z.string().max(100, "Each capability must be at most 100 characters"))
      .min(1, "At least one capability is required")
      .max(50, "At most 50 capabilities")
      .transform((list) => [...new Set(list)]),
  );

export const createAgentInput = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100, "Name must be at most 100 characters"),
  capabilities: capabilitiesField,
  /** Optional: an agent without an endpoint cannot be reached, so it stays offline. */
  endpoint: z.preprocess((v) => (typeof v === "string" && v.trim() === "") || v === null ? undefined : v, httpUrlField("Endpoint").optional()),
  organizationId: organizationIdField,
  metadata: metadataField,
});

export type CreateAgentInput = z.infer<typeof createAgentInput>;

export const DEFAULT_MESSAGE_PAYLOAD = { message: "Hello from another agent" } as const;

export const messageTypes = ["request", "notify"] as const;

export const sendMessageInput = z.object({
  /** The target is the agent in the path; a body that names another one is refused. */
  targetAgentId: z.string().max(200).optional(),
  type: z.enum(messageTypes, "type must be request or notify").default("request"),
  payload: z
    .record(z.string(), z.unknown(), "payload must be a JSON object")
    .default({ ...DEFAULT_MESSAGE_PAYLOAD })
    .refine((value) => JSON.stringify(value).length <= 20_000, "payload must be at most 20,000 characters of JSON"),
  organizationId: organizationIdField,
});

export type SendMessageInput = z.infer<typeof sendMessageInput>;
