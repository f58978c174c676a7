import { API_ROUTES } from "./api-routes.generated";

/**
 * What the proxy answers for /api/* requests no route handler takes (proxy.ts), from the route
 * table scripts/api-routes.mjs generates: an unknown path → JSON 404 (not the HTML not-found page);
 * a method the route does not export → JSON 405 with `Allow` (RFC 9110 §15.5.6; Next's own 405
 * has neither). Next picks a static segment over a dynamic one, and so does this.
 */
type Route = { pattern: string; methods: string[] };

function score(route: Route, segments: string[]): number[] | null {
  const parts = route.pattern.split("/").filter(Boolean);
  const result: number[] = [];
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part.startsWith("[[...")) return [...result, 0];
    if (part.startsWith("[...")) return segments.length > i ? [...result, 1] : null;
    if (i >= segments.length) return null;
    if (part.startsWith("[")) result.push(2);
    else if (part === segments[i]) result.push(3);
    else return null;
  }
  return parts.length === segments.length ? result : null;
}

function better(a: number[], b: number[]): boolean {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) > (b[i] ?? -1);
  }
  return false;
}

export function matchApiRoute(pathname: string, routes: Route[] = API_ROUTES): Route | null {
  let segments: string[];
  try {
    segments = pathname.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    return null;
  }
  let best: { route: Route; rank: number[] } | null = null;
  for (const route of routes) {
    const rank = score(route, segments);
    if (rank && (!best || better(rank, best.rank))) best = { route, rank };
  }
  return best?.route ?? null;
}

/** The methods a route answers: those it exports, HEAD with GET, and OPTIONS (Next implements both). */
export function allowedMethods(route: Route): string[] {
  const allowed = new Set(route.methods);
  if (allowed.has("GET")) allowed.add("HEAD");
  allowed.add("OPTIONS");
  return ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"].filter((m) => allowed.has(m));
}

export function apiFallbackResponse(method: string, pathname: string, routes: Route[] = API_ROUTES): Response | null {
  const route = matchApiRoute(pathname, routes);
  if (!route) return Response.json({ message: `No API route ${pathname}. See docs/api.md for the routes.` }, { status: 404 });
  const allowed = allowedMethods(route);
  if (allowed.includes(method.toUpperCase())) return null;
  return Response.json(
    { message: `Method ${method.toUpperCase()} is not allowed on ${pathname}; use ${allowed.join(", ")}` },
    { status: 405, headers: { Allow: allowed.join(", ") } },
  );
}
