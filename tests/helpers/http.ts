/**
 * Calls route handlers in-process, the way Next would: a real Request in, a real Response out.
 * Integration tests use it with the real database of the run.
 */
type Handler = (req: Request, ctx: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;

export type CallOptions = {
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  sessionId?: string;
  cookie?: string;
  params?: Record<string, string>;
};

export type CallResult<T = any> = { status: number; body: T; text: string; headers: Headers };

export async function call<T = any>(handler: Handler, method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
  const headers = new Headers(options.headers);
  let body: string | undefined;
  if (options.rawBody !== undefined) body = options.rawBody;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
  if (options.sessionId) headers.set("authorization", `Bearer ${options.sessionId}`);
  if (options.cookie) headers.set("cookie", options.cookie);
  const req = new Request(`http://localhost:3000${path}`, { method, headers, body });
  const res = await handler(req, { params: Promise.resolve(options.params ?? {}) });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, body: parsed as T, text, headers: res.headers };
}

let counter = 0;
export function uniqueSuffix(): string {
  counter += 1;
  return `${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4)}`;
}
