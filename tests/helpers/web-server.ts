/**
 * Serves a web-standard `(Request) => Promise<Response>` handler over real HTTP on 127.0.0.1 with a
 * random port, so SDK clients (MCP, A2A) can reach in-process counterparts and Switchboard's own
 * route handlers the way they reach any server: bodies and server-sent events stream both ways.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";

export type FetchHandler = (req: Request) => Promise<Response> | Response;

export type WebServer = {
  url: string;
  port: number;
  /** Every request the server received: method and path. */
  hits: { method: string; path: string }[];
  close(): Promise<void>;
};

function toRequest(req: http.IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), {
    method,
    headers,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : undefined,
    // Required by Node's fetch for a streamed request body.
    ...(hasBody ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function send(res: http.ServerResponse, response: Response) {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    if (key === "set-cookie") return;
    headers[key] = value;
  });
  const cookies = response.headers.getSetCookie?.() ?? [];
  if (cookies.length) headers["set-cookie"] = cookies;
  res.writeHead(response.status, headers);
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => undefined));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // The client went away or the stream failed: end what we have.
  }
  res.end();
}

export async function serveFetchHandler(handler: FetchHandler, port = 0): Promise<WebServer> {
  const hits: WebServer["hits"] = [];
  let origin = "";
  const server = http.createServer((req, res) => {
    hits.push({ method: req.method ?? "GET", path: (req.url ?? "/").split("?")[0] });
    void (async () => {
      try {
        await send(res, await handler(toRequest(req, origin)));
      } catch (error) {
        if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
        res.end(`handler failed: ${(error as Error).message}`);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const address = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${address.port}`;
  return {
    url: origin,
    port: address.port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A Next route module's handler: `(req, {params})`. */
type RouteFn = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
export type Route = { pattern: string; methods: Partial<Record<string, RouteFn>> };

/**
 * Routes requests to Next route handlers by path pattern (`/api/a2a/orgs/[organizationId]`), passing
 * the bracketed segments as params, as Next does. Unknown paths answer 404, unknown methods 405.
 */
export function routeTable(routes: Route[]): FetchHandler {
  const compiled = routes.map((route) => {
    const names: string[] = [];
    const source = route.pattern
      .split("/")
      .map((segment) => {
        const match = /^\[(.+)\]$/.exec(segment);
        if (!match) return segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        names.push(match[1]);
        return "([^/]+)";
      })
      .join("/");
    return { route, names, regex: new RegExp(`^${source}/?$`) };
  });
  return async (req) => {
    const path = new URL(req.url).pathname;
    for (const { route, names, regex } of compiled) {
      const match = regex.exec(path);
      if (!match) continue;
      const fn = route.methods[req.method];
      if (!fn) return new Response("Method not allowed", { status: 405 });
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(match[i + 1])]));
      return fn(req, { params: Promise.resolve(params) });
    }
    return new Response("Not found", { status: 404 });
  };
}
