import "server-only";
import { z } from "zod";
import type { A2aCardSummary } from "@/db/schema";
import { readLimitedText, safeFetch } from "@/lib/platform/net/safe-fetch";

/**
 * Fetching and validating another agent's card (A2A v1.0 §8): `GET <endpoint>/.well-known/agent-card.json`
 * through the SSRF guard (redirects followed, each hop checked again), at most 256 KB of JSON, and
 * the fields a client needs to talk to it: a name, a version, and at least one interface whose
 * binding we speak (JSON-RPC or HTTP+JSON) at an http(s) URL.
 */
export const AGENT_CARD_WELL_KNOWN = ".well-known/agent-card.json";
export const MAX_CARD_BYTES = 256 * 1024;
export const SUPPORTED_BINDINGS = ["JSONRPC", "HTTP+JSON"] as const;

const httpUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:";
  } catch {
    return false;
  }
}, "must be an http(s) URL");

const agentCardSchema = z.object({
  name: z.string().trim().min(1, "is missing"),
  description: z.string().default(""),
  version: z.string().min(1, "is missing"),
  supportedInterfaces: z
    .array(
      z.object({
        url: httpUrl,
        protocolBinding: z.string().min(1),
        protocolVersion: z.string().optional().default(""),
        tenant: z.string().optional(),
      }),
    )
    .min(1, "is empty"),
  capabilities: z.object({ streaming: z.boolean().optional() }).partial().optional(),
  skills: z
    .array(z.object({ id: z.string(), name: z.string(), description: z.string().optional().default("") }))
    .default([]),
  defaultInputModes: z.array(z.string()).optional(),
  defaultOutputModes: z.array(z.string()).optional(),
});

export class AgentCardError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentCardError";
  }
}

/** `https://agent.example/a2a/` → `https://agent.example/a2a/.well-known/agent-card.json`. */
export function agentCardUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, "")}/${AGENT_CARD_WELL_KNOWN}`;
}

/** Validates a card's JSON; answers its summary or throws AgentCardError naming the problem. */
export function validateAgentCard(json: unknown): A2aCardSummary {
  const parsed = agentCardSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AgentCardError(`The agent card is not valid: ${issue.path.join(".") || "card"} ${issue.message}`.trim());
  }
  const card = parsed.data;
  const usable = card.supportedInterfaces.find((i) => (SUPPORTED_BINDINGS as readonly string[]).includes(i.protocolBinding));
  if (!usable) {
    throw new AgentCardError(
      `The agent card offers no interface we can use (${card.supportedInterfaces.map((i) => i.protocolBinding).join(", ")}); JSON-RPC or HTTP+JSON is needed`,
    );
  }
  return {
    name: card.name.slice(0, 200),
    description: card.description.slice(0, 1000),
    version: card.version.slice(0, 50),
    url: usable.url,
    protocolVersion: usable.protocolVersion || "",
    skills: card.skills.slice(0, 50).map((s) => ({ id: s.id.slice(0, 100), name: s.name.slice(0, 200), description: s.description.slice(0, 500) })),
    streaming: Boolean(card.capabilities?.streaming),
  };
}

/** Fetches and validates the card of the agent at `endpoint`. Throws with a readable reason. */
export async function fetchAgentCard(endpoint: string): Promise<A2aCardSummary> {
  const url = agentCardUrl(endpoint);
  const res = await safeFetch(url, { headers: { accept: "application/json", "A2A-Version": "1.0" } }, { followRedirects: 3 });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new AgentCardError(`The agent card at ${url} answered HTTP ${res.status}`);
  }
  const text = await readLimitedText(res, MAX_CARD_BYTES + 1);
  if (text.length > MAX_CARD_BYTES) throw new AgentCardError(`The agent card is larger than ${MAX_CARD_BYTES / 1024} KB`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new AgentCardError(`The agent card at ${url} is not JSON`);
  }
  return validateAgentCard(json);
}
