/**
 * A local fake of ElevenLabs' text-to-speech API for adapter tests and the benchmark: plain HTTP on
 * 127.0.0.1 with a random port, speaking what @elevenlabs/elevenlabs-js 2.x sends and expects
 * (../shared/notes/provider-sdk-fakes.md §2): `POST /v1/text-to-speech/{voice_id}` and
 * `…/{voice_id}/stream`, `xi-api-key` header, `output_format` in the query, `{text, model_id}` in the
 * JSON body; answers `audio/mpeg`, the stream in chunks (chunked transfer encoding). Errors use the
 * API's `{detail: {status, message}}` body.
 *
 * The audio is real MPEG-1 Layer III frame structure (valid 128 kbit/s 44.1 kHz frame headers, silent
 * payload), one frame per ~26 ms of "speech" at ~14 characters per second, so joined clips stay
 * frame-aligned. `firstByteDelayMs` models the provider's latency to first byte.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeElevenLabsRequest = {
  method: string;
  path: string;
  voiceId: string | null;
  streamed: boolean;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
  body: { text?: string; model_id?: string };
};

export type FakeElevenLabsOptions = {
  apiKey: string;
  firstByteDelayMs?: number;
  /** Gap between streamed chunks. */
  chunkGapMs?: number;
  /** Frames per streamed chunk. */
  framesPerChunk?: number;
};

export type FakeElevenLabs = {
  url: string;
  requests: FakeElevenLabsRequest[];
  failNext(status: number, message: string): void;
  close(): Promise<void>;
};

/** One MPEG-1 Layer III frame: 128 kbit/s, 44.1 kHz, no padding → 417 bytes. */
export const MP3_FRAME_BYTES = 417;
export function mp3Frame(): Buffer {
  const frame = Buffer.alloc(MP3_FRAME_BYTES);
  frame[0] = 0xff;
  frame[1] = 0xfb;
  frame[2] = 0x90;
  frame[3] = 0x64;
  return frame;
}

/** The fake's audio for `text`: whole frames, about 38 per second of speech. */
export function fakeSpeech(text: string): Buffer {
  const seconds = Math.max(0.5, text.length / 14);
  const frames = Math.ceil(seconds * 38.28);
  return Buffer.concat(Array.from({ length: frames }, mp3Frame));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeElevenLabs(options: FakeElevenLabsOptions): Promise<FakeElevenLabs> {
  const requests: FakeElevenLabsRequest[] = [];
  let nextError: { status: number; message: string } | null = null;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const url = new URL(req.url ?? "/", "http://127.0.0.1");
        let body: FakeElevenLabsRequest["body"] = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
        } catch {
          body = {};
        }
        const match = /^\/v1\/text-to-speech\/([^/]+)(\/stream)?$/.exec(url.pathname);
        const request: FakeElevenLabsRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          voiceId: match ? decodeURIComponent(match[1]) : null,
          streamed: Boolean(match?.[2]),
          query: Object.fromEntries(url.searchParams.entries()),
          headers: req.headers,
          body,
        };
        requests.push(request);
        const fail = (status: number, message: string) => {
          res.writeHead(status, { "content-type": "application/json" });
          res.end(JSON.stringify({ detail: { status: status === 401 ? "invalid_api_key" : "error", message } }));
        };
        if (req.method !== "POST" || !match) return fail(404, `No route ${req.method} ${url.pathname}`);
        if (req.headers["xi-api-key"] !== options.apiKey) return fail(401, "Invalid API key");
        if (nextError) {
          const e = nextError;
          nextError = null;
          return fail(e.status, e.message);
        }
        if (!body.text || !body.text.trim()) return fail(422, "text is required");

        const audio = fakeSpeech(body.text);
        await sleep(options.firstByteDelayMs ?? 0);
        res.writeHead(200, { "content-type": "audio/mpeg", "transfer-encoding": "chunked", "request-id": `el_${requests.length}` });
        if (!request.streamed) {
          res.end(audio);
          return;
        }
        const step = (options.framesPerChunk ?? 8) * MP3_FRAME_BYTES;
        for (let offset = 0; offset < audio.length; offset += step) {
          if (offset > 0 && options.chunkGapMs) await sleep(options.chunkGapMs);
          res.write(audio.subarray(offset, offset + step));
        }
        res.end();
      })();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, message) {
      nextError = { status, message };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
