import "server-only";
import crypto from "node:crypto";
import { NextResponse } from "next/server";
import { getDb, type Db } from "@/lib/platform/database";
import { resolveSession, type Session, type SessionUser } from "@/lib/identity/auth/session";
import type { Permission, Role } from "@/lib/identity/auth/roles";
import { badRequest, forbidden, HttpError, unauthorized } from "@/lib/platform/http/errors";
import { databaseErrorCode, errorForLog, isDatabaseUnavailable } from "@/lib/platform/database-errors";
import { assertNotCrossSite } from "@/lib/platform/http/origin";
import { isJsonContentType, NUL_MESSAGE, unsupportedMediaType } from "@/lib/platform/http/parse";

/**
 * The one way a route handler is written (docs/conventions.md): the wrapper owns the request id,
 * the database handle, the session (required, optional or none), the permission check and the
 * mapping of errors to responses. Handlers parse, call a service and return a value.
 *
 * Rules every route gets from here (docs/security.md):
 * - a state-changing request (POST/PUT/PATCH/DELETE) from a page on another site → 403 (lib/platform/http/origin.ts);
 * - a path parameter holding a NUL character → 400;
 * - an authed route's state-changing request whose Content-Type is not JSON → 415 (`accepts: "any"` opts out);
 * - PostgreSQL refusing a value (NUL byte, a date out of range) → 400, never a 500.
 */

/** Who is calling, as every service function receives it. */
export type RequestContext = {
  userId: string;
  organizationId: string;
  role: Role;
  user: SessionUser;
};

export type Params = Record<string, string>;
type RouteParams = { params: Promise<Record<string, string | string[]>> };
type HandlerResult = Response | object | null;
export type RouteHandler = (req: Request, ctx: RouteParams) => Promise<Response>;

export type PublicExtra = { db: Db; params: Params; requestId: string };
export type OptionalSessionExtra = PublicExtra & { session: Session | null };
export type AuthedExtra = PublicExtra & { ctx: RequestContext; session: Session };

export function json(body: unknown, init?: ResponseInit) {
  return NextResponse.json(body, init);
}

/** PostgreSQL's "this value cannot be stored" errors (class 22), found on drizzle's wrapper or its cause. */
const BAD_VALUE_CODES = new Set(["22021", "22P05", "22007", "22008", "22003", "22P02", "22001", "54000"]);

function badValueError(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | null, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (typeof e.code === "string" && BAD_VALUE_CODES.has(e.code)) return true;
  }
  return false;
}

/** Seconds a client waits before retrying while the database is unreachable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

function errorResponse(error: unknown, requestId: string, route: string): Response {
  // Logs name the route and the error's code, never the statement's parameters (lib/platform/database-errors.ts).
  if (!(error instanceof HttpError) && badValueError(error)) {
    // A value got past validation that the database cannot hold: the caller's input, so a 400.
    console.warn(`[${requestId}] ${route}: database refused a value (${errorForLog(error)})`);
    error = badRequest("Invalid request: a value could not be stored (unsupported characters, or out of range)");
  }
  if (!(error instanceof HttpError) && isDatabaseUnavailable(error)) {
    console.error(`[${requestId}] ${route}: database unavailable (${errorForLog(error)})`);
    error = new HttpError(503, "The service is temporarily unavailable. Please try again in a few seconds.", undefined, {
      "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS),
    });
  }
  if (error instanceof HttpError) {
    const body: { message: string; errors?: Record<string, string> } = { message: error.message };
    if (error.errors) body.errors = error.errors;
    return NextResponse.json(body, { status: error.status, headers: { ...error.headers, "x-request-id": requestId } });
  }
  console.error(`[${requestId}] ${route}: unhandled error (${errorForLog(error)})`, error instanceof Error && !databaseErrorCode(error) ? error.stack?.split("\n").slice(1, 6).join("\n") : "");
  return NextResponse.json(
    { message: `Something went wrong. Please try again (request ${requestId}).` },
    { status: 500, headers: { "x-request-id": requestId } },
  );
}

function routeName(req: Request): string {
  try {
    return `${req.method} ${new URL(req.url).pathname}`;
  } catch {
    return req.method;
  }
}

function toResponse(result: HandlerResult): Response {
  if (result instanceof Response) return result;
  return NextResponse.json(result ?? { success: true });
}

async function resolveParams(ctx: RouteParams | undefined): Promise<Params> {
  const raw = ctx?.params ? await ctx.params : {};
  const params: Params = {};
  for (const [key, value] of Object.entries(raw)) {
    const joined = Array.isArray(value) ? value.join("/") : value;
    if (joined.includes("\u0000")) throw badRequest(`Invalid request: ${key} ${NUL_MESSAGE}`, { [key]: `${key} ${NUL_MESSAGE}` });
    params[key] = joined;
  }
  return params;
}

function wrap<E>(build: (req: Request, base: PublicExtra) => Promise<E>, handler: (req: Request, extra: E) => Promise<HandlerResult>): RouteHandler {
  return async (req, routeCtx) => {
    const requestId = crypto.randomUUID();
    try {
      assertNotCrossSite(req);
      const base: PublicExtra = { db: await getDb(), params: await resolveParams(routeCtx), requestId };
      return toResponse(await handler(req, await build(req, base)));
    } catch (error) {
      return errorResponse(error, requestId, routeName(req));
    }
  };
}

type PublicOptions = { session: "optional" };

/**
 * A route anyone may call. With `{session: "optional"}` the handler also gets the caller's session
 * when there is one (bearer or cookie), or null.
 */
export function publicRoute(handler: (req: Request, extra: PublicExtra) => Promise<HandlerResult>): RouteHandler;
export function publicRoute(options: PublicOptions, handler: (req: Request, extra: OptionalSessionExtra) => Promise<HandlerResult>): RouteHandler;
export function publicRoute(
  a: PublicOptions | ((req: Request, extra: PublicExtra) => Promise<HandlerResult>),
  b?: (req: Request, extra: OptionalSessionExtra) => Promise<HandlerResult>,
): RouteHandler {
  if (typeof a === "function") return wrap(async (_req, base) => base, a);
  return wrap(async (req, base) => ({ ...base, session: await resolveSession(base.db, req.headers) }), b!);
}

type AuthOptions = {
  /** The permission the caller's role must carry (lib/identity/auth/roles.ts). Every authed route declares one. */
  permission: Permission;
  /**
   * "json" (default): a POST/PUT/PATCH/DELETE that declares a Content-Type other than JSON is 415
   * before the session is even read. "any": the handler reads another format itself (uploads).
   */
  accepts?: "json" | "any";
};

const BODY_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * A route for signed-in callers: session (bearer or cookie) → organization and role → permission →
 * handler. A missing or bad session is 401 "Unauthorized"; a role without the permission is 403.
 */
export function authedRoute(options: AuthOptions, handler: (req: Request, extra: AuthedExtra) => Promise<HandlerResult>): RouteHandler {
  return wrap(async (req, base) => {
    if ((options.accepts ?? "json") === "json" && BODY_METHODS.has(req.method.toUpperCase())) {
      const type = req.headers.get("content-type");
      if (type && !isJsonContentType(type)) throw unsupportedMediaType();
    }
    const session = await resolveSession(base.db, req.headers);
    if (!session) throw unauthorized();
    const { user } = session;
    if (!user.permissions.includes(options.permission)) {
      throw forbidden(options.permission.startsWith("admin.") ? "Admin privileges required" : "You do not have permission to do this.");
    }
    const ctx: RequestContext = { userId: user.id, organizationId: user.organizationId, role: user.role, user };
    return { ...base, ctx, session };
  }, handler);
}
