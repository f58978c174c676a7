import "server-only";
import type { DbOrTx } from "@/db/client";
import { env } from "@/lib/platform/env";
import { resolveCredential, type ResolvedCredential } from "./credentials";
import { createAnthropicLlm } from "@/lib/platform/providers/llm/anthropic";
import type { LlmProvider } from "@/lib/platform/providers/llm/interface";
import { createLocalResponder } from "@/lib/platform/providers/llm/local";

const local = createLocalResponder();

export function localLlm(): LlmProvider {
  return local;
}

/**
 * The language model for an organization (ARCHITECTURE): its saved Anthropic key, else the
 * environment's ANTHROPIC_API_KEY (model ANTHROPIC_MODEL, default claude-haiku-5-5), else the
 * local responder. `organizationId` null is the public demo: environment or local.
 */
export async function selectLlm(db: DbOrTx, organizationId: string | null): Promise<LlmProvider> {
  return llmFor(await resolveCredential(db, organizationId, "anthropic"));
}

/** The language model for a resolved Anthropic credential (null: the local responder). */
export function llmFor(credential: ResolvedCredential<"anthropic"> | null): LlmProvider {
  if (credential) return createAnthropicLlm({ apiKey: credential.secret.apiKey, model: env.ANTHROPIC_MODEL });
  return local;
}
