import "server-only";
import crypto from "node:crypto";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { accessTokens } from "@/db/schema";
import { forbidden, notFound } from "@/lib/platform/http/errors";
import type { RequestContext } from "@/lib/identity/http/route";
import type { CreateAccessTokenInput } from "./schema";
import { accessTokenScopes, isAccessTokenScope, type AccessTokenScope } from "./scopes";

/**
 * Organization access tokens for Switchboard's MCP server (docs/mcp.md). A token is
 * `sbat_` + 43 base64url characters (32 random bytes); only its SHA-256 is stored, so it is shown
 * once, when created. Revoking sets `revokedAt`: the next request with it answers 401.
 */
export const TOKEN_PREFIX = "sbat_";

export type AccessTokenDto = {
  id: string;
  name: string;
  scopes: AccessTokenScope[];
  /** The first characters of the token, to tell tokens apart (never enough to use it). */
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
};

export type VerifiedAccessToken = { id: string; organizationId: string; scopes: AccessTokenScope[] };

export function hashToken(token: string): string {
  return crypto.createHash("sha256").update(token, "utf8").digest("hex");
}

function toDto(row: typeof accessTokens.$inferSelect): AccessTokenDto {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes.filter(isAccessTokenScope),
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}

export async function createAccessToken(db: Db, ctx: RequestContext, input: CreateAccessTokenInput): Promise<AccessTokenDto & { token: string }> {
  for (const scope of input.scopes) {
    const needed = accessTokenScopes.find((s) => s.id === scope)!.permission;
    if (!ctx.user.permissions.includes(needed)) throw forbidden(`Your role cannot grant the ${scope} scope`);
  }
  const token = `${TOKEN_PREFIX}${crypto.randomBytes(32).toString("base64url")}`;
  const [row] = await db
    .insert(accessTokens)
    .values({
      id: crypto.randomUUID(),
      organizationId: ctx.organizationId,
      name: input.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, TOKEN_PREFIX.length + 6),
      scopes: input.scopes,
      createdBy: ctx.userId,
    })
    .returning();
  return { ...toDto(row), token };
}

/** The organization's live tokens, newest first (no secrets). */
export async function listAccessTokens(db: Db, organizationId: string): Promise<AccessTokenDto[]> {
  const rows = await db
    .select()
    .from(accessTokens)
    .where(and(eq(accessTokens.organizationId, organizationId), isNull(accessTokens.revokedAt)))
    .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id));
  return rows.map(toDto);
}

export async function revokeAccessToken(db: Db, organizationId: string, id: string): Promise<void> {
  const revoked = await db
    .update(accessTokens)
    .set({ revokedAt: new Date() })
    .where(and(eq(accessTokens.organizationId, organizationId), eq(accessTokens.id, id), isNull(accessTokens.revokedAt)))
    .returning({ id: accessTokens.id });
  if (revoked.length === 0) throw notFound("Access token");
}

/** How stale `lastUsedAt` may get before a request writes it again (one write a minute per token). */
const LAST_USED_RESOLUTION_MS = 60_000;

/** The live token with this secret, or null. Records when it was last used. */
export async function verifyAccessToken(db: Db, token: string | undefined | null, now = new Date()): Promise<VerifiedAccessToken | null> {
  if (!token || !token.startsWith(TOKEN_PREFIX) || token.length > 200) return null;
  const [row] = await db
    .select({ id: accessTokens.id, organizationId: accessTokens.organizationId, scopes: accessTokens.scopes })
    .from(accessTokens)
    .where(and(eq(accessTokens.tokenHash, hashToken(token)), isNull(accessTokens.revokedAt)))
    .limit(1);
  if (!row) return null;
  await db
    .update(accessTokens)
    .set({ lastUsedAt: now })
    .where(
      and(
        eq(accessTokens.id, row.id),
        or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))),
      ),
    );
  return { id: row.id, organizationId: row.organizationId, scopes: row.scopes.filter(isAccessTokenScope) };
}
