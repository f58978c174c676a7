import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "./auth";
import { organizations } from "./organizations";

/**
 * The agent protocols (docs/mcp.md, docs/a2a.md): MCP services an organization registers (their
 * health measured by a job), the access tokens MCP clients use to reach Switchboard's own MCP
 * server and the connections they make, A2A agents (online from a job that fetches their card), the
 * messages sent to them, and the tasks of Switchboard's own A2A agent.
 */

/** A tool as an MCP server really offers it (from tools/list at the last health check). */
export type McpToolInfo = { name: string; title?: string; description?: string; inputSchema?: Record<string, unknown> };

export const mcpServices = pgTable(
  "mcp_service",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    version: text("version").notNull(),
    description: text("description").notNull(),
    endpoint: text("endpoint").notNull(),
    /** The methods (tools) the registrant declared; the tools really offered are in `tools`. */
    methods: jsonb("methods").$type<string[]>().notNull().default([]),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    isActive: boolean("is_active").notNull().default(true),
    healthStatus: text("health_status", { enum: ["healthy", "unhealthy", "unknown"] }).notNull().default("unknown"),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    latencyMs: integer("latency_ms"),
    lastError: text("last_error"),
    /** The negotiated protocol: "2026-07-28" (modern era) or the 2025-era version the server answered. */
    protocolVersion: text("protocol_version"),
    serverInfo: jsonb("server_info").$type<{ name: string; version: string } | null>(),
    tools: jsonb("tools").$type<McpToolInfo[] | null>(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("mcp_service_org_idx").on(t.organizationId, t.createdAt)],
);

/**
 * An organization's access token for Switchboard's MCP server. Only the SHA-256 of the token is
 * stored; `prefix` (the first characters) is shown so people can tell their tokens apart.
 */
export const accessTokens = pgTable(
  "access_token",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    prefix: text("prefix").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull().default([]),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("access_token_hash_idx").on(t.tokenHash), index("access_token_org_idx").on(t.organizationId, t.createdAt)],
);

/**
 * An MCP client seen on Switchboard's MCP server: one row per token and client identity (the
 * clientInfo it sends), updated on every request. The protocol is stateless, so "connected" means
 * active within the last few minutes (lib/agents/mcp/connections.ts).
 */
export const mcpConnections = pgTable(
  "mcp_connection",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    accessTokenId: text("access_token_id")
      .notNull()
      .references(() => accessTokens.id, { onDelete: "cascade" }),
    /** clientInfo.name as the client sent it ("" when it sent none). */
    clientName: text("client_name").notNull().default(""),
    clientVersion: text("client_version").notNull().default(""),
    protocolVersion: text("protocol_version"),
    requestCount: integer("request_count").notNull().default(0),
    lastMethod: text("last_method"),
    connectedAt: timestamp("connected_at", { withTimezone: true }).notNull().defaultNow(),
    lastActivityAt: timestamp("last_activity_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("mcp_connection_identity_idx").on(t.accessTokenId, t.clientName, t.clientVersion),
    index("mcp_connection_org_activity_idx").on(t.organizationId, t.lastActivityAt),
  ],
);

/** What an agent's card said at the last check (name, skills, interfaces), for the console. */
export type A2aCardSummary = {
  name: string;
  description: string;
  version: string;
  url: string;
  protocolVersion: string;
  skills: { id: string; name: string; description: string }[];
  streaming: boolean;
};

export const a2aAgents = pgTable(
  "a2a_agent",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    capabilities: jsonb("capabilities").$type<string[]>().notNull().default([]),
    /** The agent's base URL; its card is at `<endpoint>/.well-known/agent-card.json`. */
    endpoint: text("endpoint"),
    metadata: jsonb("metadata").$type<Record<string, unknown>>().notNull().default({}),
    isOnline: boolean("is_online").notNull().default(false),
    /** The last time its card was fetched and valid. */
    lastSeen: timestamp("last_seen", { withTimezone: true }),
    lastCheckedAt: timestamp("last_checked_at", { withTimezone: true }),
    lastError: text("last_error"),
    card: jsonb("card").$type<A2aCardSummary | null>(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("a2a_agent_org_idx").on(t.organizationId, t.createdAt)],
);

/** The answer an agent gave, as stored and shown. */
export type A2aAnswer = {
  kind: "message" | "task";
  /** The text of the answer's parts (message parts, or the task's status message and artifacts). */
  text: string;
  taskId?: string;
  contextId?: string;
  /** A task's state, e.g. "completed", "working", "input-required". */
  state?: string;
  /** The caller token the agent issued with its answer (metadata.callerToken), presented to follow the task. */
  callerToken?: string;
};

/** A message sent to an A2A agent: queued, then delivered by the `a2a.deliver` job with retries. */
export const a2aMessages = pgTable(
  "a2a_message",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    targetAgentId: text("target_agent_id")
      .notNull()
      .references(() => a2aAgents.id, { onDelete: "cascade" }),
    type: text("type", { enum: ["request", "notify"] }).notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    status: text("status", { enum: ["queued", "delivered", "answered", "failed"] }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    answer: jsonb("answer").$type<A2aAnswer | null>(),
    createdBy: text("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [index("a2a_message_org_created_idx").on(t.organizationId, t.createdAt)],
);

/** Tasks of Switchboard's own A2A agent (one per organization): the SDK's TaskStore, in the database. */
export const a2aTasks = pgTable(
  "a2a_task",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    contextId: text("context_id").notNull(),
    state: text("state").notNull(),
    /**
     * SHA-256 of the caller token issued with the task's first answer (lib/agents/a2a/agent/caller.ts): only
     * the agent presenting that token reads, lists, continues or cancels the task. Null for tasks
     * created before tokens existed (no one can read them).
     */
    ownerKey: text("owner_key"),
    /** The SDK's Task object as JSON. */
    task: jsonb("task").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("a2a_task_org_context_idx").on(t.organizationId, t.contextId),
    index("a2a_task_org_owner_idx").on(t.organizationId, t.ownerKey, t.updatedAt),
  ],
);

/**
 * Proof of a phone number over A2A (lib/agents/a2a/agent/phone-proof.ts): before an agent may move or
 * cancel an appointment found by a customer's number, a one-time code is texted to that number and
 * must come back in a later message of the same conversation (context). One row per context.
 */
export const a2aPhoneProofs = pgTable(
  "a2a_phone_proof",
  {
    id: text("id").primaryKey(),
    organizationId: text("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    contextId: text("context_id").notNull(),
    phone: text("phone").notNull(),
    /** SHA-256 of the code texted to `phone`. */
    codeHash: text("code_hash").notNull(),
    /** The request that asked for the proof, carried on once the code is back. */
    request: text("request").notNull(),
    attempts: integer("attempts").notNull().default(0),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("a2a_phone_proof_org_context_idx").on(t.organizationId, t.contextId)],
);
