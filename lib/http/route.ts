import "server-only";
import crypto from "node:crypto";
import { NextResponse } from "next/server";
import { resolveSession, type SessionUser } from "@/lib/auth/session";
import type { Permission, Role } from "@/lib/auth/roles";
import { forbidden, HttpError, unauthorized } from "./errors";

/** Who is calling, as every service function receives it. */
export type RequestContext = {
  userId: string;
  organizationId: string;
  role: Role;
  user: SessionUser;
};

type RouteParams = { params: Promise<Record<string, string | string[]>> };
type Params = Record<string, string>;
type HandlerResult = Response | object | null;

export function json(body: unknown, init?: ResponseInit) {
  return NextResponse.json(body, init);
}

function errorResponse(error: unknown, requestId: string): Response {
  if (error instanceof HttpError) {
    const body: { message: string; errors?: Record<string, string> } = { message: error.message };
    if (error.errors) body.errors = error.errors;
    return NextResponse.json(body, { status: error.status, headers: { ...error.headers, "x-request-id": requestId } });
  }
  console.error(`[${requestId}] unhandled error`, error);
  return NextResponse.json(
    { message: `Something went wrong. Please try again (request ${requestId}).` },
    { status: 500, headers: { "x-request-id": requestId } },
  );
}

function toResponse(result: HandlerResult): Response {
  if (result instanceof Response) return result;
  return NextResponse.json(result ?? { success: true });
}

async function resolveParams(ctx: RouteParams | undefined): Promise<Params> {
  const raw = ctx?.params ? await ctx.params : {};
  const params: Params = {};
  for (const [key, value] of Object.entries(raw)) params[key] = Array.isArray(value) ? value.join("/") : value;
  return params;
}

/** A route anyone may call. Errors are mapped the same way as in authenticated routes. */
export function publicRoute(handler: (req: Request, extra: { params: Params; requestId: string }) => Promise<HandlerResult>) {
  return async (req: Request, ctx: RouteParams): Promise<Response> => {
    const requestId = crypto.randomUUID();
    try {
      return toResponse(await handler(req, { params: await resolveParams(ctx), requestId }));
    } catch (error) {
      return errorResponse(error, requestId);
    }
  };
}

type AuthOptions = {
  /** The permission the caller's role must carry (see lib/auth/roles.ts). */
  permission?: Permission;
  /** Alternatively, the roles allowed. */
  roles?: readonly Role[];
};

/**
 * A route for signed-in callers: session (bearer or cookie) → organization and role → permission →
 * handler. A missing or bad session is 401 "Unauthorized"; a role without the permission is 403.
 */
export function authedRoute(
  options: AuthOptions,
  handler: (req: Request, extra: { params: Params; requestId: string; ctx: RequestContext }) => Promise<HandlerResult>,
) {
  return async (req: Request, routeCtx: RouteParams): Promise<Response> => {
    const requestId = crypto.randomUUID();
    try {
      const session = await resolveSession(req.headers);
      if (!session) throw unauthorized();
      const { user } = session;
      if (options.permission && !user.permissions.includes(options.permission)) {
        throw forbidden("You do not have permission to do this.");
      }
      if (options.roles && !options.roles.includes(user.role)) {
        throw forbidden("Admin privileges required");
      }
      const ctx: RequestContext = { userId: user.id, organizationId: user.organizationId, role: user.role, user };
      return toResponse(await handler(req, { params: await resolveParams(routeCtx), requestId, ctx }));
    } catch (error) {
      return errorResponse(error, requestId);
    }
  };
}
