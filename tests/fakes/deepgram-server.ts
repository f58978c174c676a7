/**
 * A local fake of Deepgram's pre-recorded transcription API for adapter tests: plain HTTP on
 * 127.0.0.1 with a random port, speaking what @deepgram/sdk 5.x sends and expects
 * (../shared/notes/provider-sdk-fakes.md §3): `POST /v1/listen` with options in the query string,
 * `authorization: Token <key>`, either raw audio bytes (`application/octet-stream`, or an audio
 * type) or JSON `{url}`; answers Deepgram's response shape (metadata + results.channels[].alternatives[]).
 * Errors use the API's `{err_code, err_msg, request_id}` body.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeDeepgramRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  contentType: string;
  bytes: number;
  json: { url?: string } | null;
};

export type FakeDeepgramOptions = {
  apiKey: string;
  transcript?: string;
  confidence?: number;
  durationSeconds?: number;
};

export type FakeDeepgram = {
  url: string;
  requests: FakeDeepgramRequest[];
  failNext(status: number, code: string, message: string): void;
  close(): Promise<void>;
};

export async function startFakeDeepgram(options: FakeDeepgramOptions): Promise<FakeDeepgram> {
  const requests: FakeDeepgramRequest[] = [];
  let nextError: { status: number; code: string; message: string } | null = null;
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const raw = Buffer.concat(chunks);
      const contentType = String(req.headers["content-type"] ?? "");
      let json: FakeDeepgramRequest["json"] = null;
      if (contentType.includes("application/json")) {
        try {
          json = JSON.parse(raw.toString("utf8"));
        } catch {
          json = null;
        }
      }
      requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams.entries()),
        headers: req.headers,
        contentType,
        bytes: raw.length,
        json,
      });
      const requestId = `dg-fake-${++counter}`;
      const fail = (status: number, code: string, message: string) => {
        res.writeHead(status, { "content-type": "application/json", "dg-request-id": requestId });
        res.end(JSON.stringify({ err_code: code, err_msg: message, request_id: requestId }));
      };
      if (req.method !== "POST" || url.pathname !== "/v1/listen") return fail(404, "NOT_FOUND", `No route ${req.method} ${url.pathname}`);
      if (req.headers.authorization !== `Token ${options.apiKey}`) return fail(401, "INVALID_AUTH", "Invalid credentials.");
      if (nextError) {
        const e = nextError;
        nextError = null;
        return fail(e.status, e.code, e.message);
      }
      if (json ? !json.url : raw.length === 0) return fail(400, "Bad Request", "No audio or URL in the request.");

      const transcript = options.transcript ?? "hello this is a test recording";
      res.writeHead(200, { "content-type": "application/json", "dg-request-id": requestId });
      res.end(
        JSON.stringify({
          metadata: {
            request_id: requestId,
            created: new Date().toISOString(),
            duration: options.durationSeconds ?? 3.2,
            channels: 1,
            models: [url.searchParams.get("model") ?? "nova-3"],
          },
          results: {
            channels: [
              {
                alternatives: [
                  {
                    transcript,
                    confidence: options.confidence ?? 0.97,
                    words: transcript.split(" ").map((word, i) => ({ word, start: i * 0.4, end: i * 0.4 + 0.35, confidence: 0.97 })),
                  },
                ],
              },
            ],
          },
        }),
      );
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, code, message) {
      nextError = { status, code, message };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
