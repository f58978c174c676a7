import "server-only";
import { dehydrate, QueryClient, type DehydratedState } from "@tanstack/react-query";
import { headers } from "next/headers";

/** A route handler's GET export (app/api/…/route.ts). */
export type RouteGet = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/**
 * One query a server component fills for the page's client components: the same key the client
 * component uses (its URL is `queryKey.join("/")`, as lib/platform/api-client.ts's fetcher builds it), and the
 * route handler that answers that URL.
 */
export type ServerQuery = {
  queryKey: readonly unknown[];
  get: RouteGet;
  /** The URL to ask, when it is not `queryKey.join("/")` (an infinite query's first page). */
  url?: string;
  /** A TanStack infinite query: the answer is its first page (`pageParams: [null]`). */
  infinite?: boolean;
};

// Only what a route needs to know who is asking; nothing else of the page request is passed on.
const FORWARDED_HEADERS = ["cookie", "authorization", "user-agent", "x-forwarded-for", "x-real-ip"] as const;

/**
 * Asks the route handler itself, in-process, as the visitor: the handler resolves the session from
 * the forwarded cookie, checks its permission, scopes to the session's organization and answers the
 * same JSON the browser would get. So a page's first HTML holds exactly what its fetch would have
 * shown, without a second implementation of any query. A non-2xx answer (no permission, a stale
 * session) or an error leaves the query empty: the client component then fetches and shows its own
 * error or sign-in handling, as before.
 */
async function askRoute(get: RouteGet, url: string, incoming: Headers): Promise<unknown> {
  const forwarded = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = incoming.get(name);
    if (value) forwarded.set(name, value);
  }
  const host = incoming.get("host") ?? "localhost";
  const response = await get(new Request(new URL(url, `http://${host}`), { headers: forwarded }), { params: Promise.resolve({}) });
  if (!response.ok) return undefined;
  return response.json();
}

/** Runs the queries in parallel and returns the state for a `<HydrationBoundary>` (components/shell/app-shell/server-data.tsx). */
export async function prefetchQueries(queries: ServerQuery[]): Promise<DehydratedState> {
  const incoming = await headers();
  const client = new QueryClient();
  await Promise.all(
    queries.map(async (query) => {
      const data = await askRoute(query.get, query.url ?? query.queryKey.join("/"), incoming).catch((error: unknown) => {
        console.error(`server prefetch ${query.queryKey.join("/")} failed:`, error instanceof Error ? error.message : error);
        return undefined;
      });
      if (data === undefined) return;
      client.setQueryData(query.queryKey, query.infinite ? { pages: [data], pageParams: [null] } : data);
    }),
  );
  return dehydrate(client);
}
