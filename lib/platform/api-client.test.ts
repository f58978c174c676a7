/**
 * The browser's shared request behaviour (spec core §7, §8), with fetch and localStorage stubbed.
 */
import { apiRequest, getQueryFn, isUnauthorizedError, serverMessage } from "./api-client";

type FetchArgs = [string, RequestInit];

const store = new Map<string, string>();
const localStorageStub = {
  getItem: (key: string) => store.get(key) ?? null,
  setItem: (key: string, value: string) => void store.set(key, value),
  removeItem: (key: string) => void store.delete(key),
};

let calls: FetchArgs[] = [];
let nextResponse: Response;

beforeEach(() => {
  store.clear();
  calls = [];
  nextResponse = new Response(JSON.stringify({ ok: true }), { status: 200 });
  (globalThis as { window?: unknown }).window = { localStorage: localStorageStub };
  globalThis.fetch = (async (url: string, init: RequestInit) => {
    calls.push([url, init]);
    return nextResponse;
  }) as typeof fetch;
});

afterAll(() => {
  delete (globalThis as { window?: unknown }).window;
});

function headersOf(call: FetchArgs): Headers {
  return new Headers(call[1].headers);
}

function queryContext(queryKey: readonly unknown[]) {
  return { queryKey, signal: new AbortController().signal, meta: undefined, client: undefined } as never;
}

describe("apiRequest", () => {
  it("sends the stored session id as a bearer token, with cookies", async () => {
    store.set("sessionId", "abc123");
    await apiRequest("GET", "/api/auth/me");
    const [url, init] = calls[0];
    expect(url).toBe("/api/auth/me");
    expect(init.credentials).toBe("include");
    expect(headersOf(calls[0]).get("authorization")).toBe("Bearer abc123");
  });

  it("sends a JSON content type only when there is a body", async () => {
    await apiRequest("POST", "/api/auth/logout");
    expect(headersOf(calls[0]).has("content-type")).toBe(false);
    expect(headersOf(calls[0]).has("authorization")).toBe(false);

    await apiRequest("POST", "/api/auth/login", { email: "a@b.co", password: "secret1" });
    expect(headersOf(calls[1]).get("content-type")).toBe("application/json");
    expect(calls[1][1].body).toBe(JSON.stringify({ email: "a@b.co", password: "secret1" }));
  });

  it("throws 'STATUS: body' on a non-OK answer", async () => {
    nextResponse = new Response(JSON.stringify({ message: "Email already registered" }), { status: 409 });
    await expect(apiRequest("POST", "/api/auth/register", {})).rejects.toThrow(
      '409: {"message":"Email already registered"}',
    );
  });

  it("uses the status text when the body is empty", async () => {
    nextResponse = new Response(null, { status: 503, statusText: "Service Unavailable" });
    await expect(apiRequest("GET", "/api/x")).rejects.toThrow("503: Service Unavailable");
  });
});

describe("getQueryFn", () => {
  it("GETs the query key joined with slashes and parses JSON", async () => {
    nextResponse = new Response(JSON.stringify({ totalCalls: 3 }), { status: 200 });
    const data = await getQueryFn({ on401: "throw" })(queryContext(["/api/phone-numbers", "42"]));
    expect(calls[0][0]).toBe("/api/phone-numbers/42");
    expect(data).toEqual({ totalCalls: 3 });
  });

  it("returns null on a 401 when asked to", async () => {
    nextResponse = new Response(JSON.stringify({ message: "Unauthorized" }), { status: 401 });
    await expect(getQueryFn({ on401: "returnNull" })(queryContext(["/api/auth/me"]))).resolves.toBeNull();
  });

  it("throws a recognisable 401 otherwise", async () => {
    nextResponse = new Response(JSON.stringify({ message: "Unauthorized" }), { status: 401 });
    const query = getQueryFn({ on401: "throw" });
    const error = await Promise.resolve(query(queryContext(["/api/dashboard/stats"]))).catch((e: unknown) => e);
    expect(isUnauthorizedError(error)).toBe(true);
  });
});

describe("error helpers", () => {
  it("recognises 401s only by the spec's shape", () => {
    expect(isUnauthorizedError(new Error('401: {"message":"Unauthorized"}'))).toBe(true);
    expect(isUnauthorizedError(new Error('401: {"message":"Invalid email or password"}'))).toBe(false);
    expect(isUnauthorizedError(new Error("403: Unauthorized"))).toBe(false);
    expect(isUnauthorizedError("401: Unauthorized")).toBe(false);
  });

  it("extracts the server's message from a JSON body", () => {
    expect(serverMessage(new Error('409: {"message":"Username is taken"}'))).toBe("Username is taken");
    expect(serverMessage(new Error("500: <html>oops</html>"))).toBeNull();
    expect(serverMessage(new Error("Network down"))).toBeNull();
  });
});
