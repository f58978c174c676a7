/**
 * A local fake of Anthropic's Messages API for adapter tests and the benchmark: plain HTTP on
 * 127.0.0.1 with a random port. It speaks what @anthropic-ai/sdk 1.x sends and expects
 * (../shared/notes/provider-sdk-fakes.md §1): `POST /v1/messages`, `authorization: Bearer <key>`,
 * an `anthropic-version` header, JSON answers, and for `stream: true` server-sent events with
 * `event:` lines (message_start → content_block_start → ping → content_block_delta… →
 * content_block_stop → message_delta → message_stop). Errors use the API's error body.
 *
 * Delays model a remote model: `firstTokenDelayMs` before the first text, then
 * `perSentenceDelayMs` between sentences (each sentence is one text delta, with its trailing space).
 *
 * Tool use: `reply` may answer `{text?, toolUses: [{name, input}]}`; the answer then carries
 * tool_use content blocks after the text (streamed as content_block_start with an empty input and
 * input_json_delta pieces) and stop_reason "tool_use", as the Messages API does.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type FakeAnthropicRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: {
    model?: string;
    max_tokens?: number;
    stream?: boolean;
    system?: string;
    messages?: { role: string; content: string | Record<string, any>[] }[];
    tools?: { name: string; description?: string; input_schema: Record<string, unknown> }[];
    tool_choice?: { type: string };
  };
};

export type FakeToolResult = { type: "tool_result"; tool_use_id: string; content: string; is_error?: boolean };

/** The tool results the adapter sent back in this request (its last message). */
export function toolResults(request: FakeAnthropicRequest): FakeToolResult[] {
  const last = request.body.messages!.at(-1)!;
  return typeof last.content === "string" ? [] : (last.content as FakeToolResult[]).filter((b) => b.type === "tool_result");
}

export type FakeToolUse = { id?: string; name: string; input: unknown };
export type FakeReply = string | { text?: string; toolUses: FakeToolUse[] };

export type FakeAnthropicOptions = {
  apiKey: string;
  /** The answer for a request: its text (default: an intent tag line and two sentences), or text and tool uses. */
  reply?: (request: FakeAnthropicRequest) => FakeReply;
  firstTokenDelayMs?: number;
  perSentenceDelayMs?: number;
  /** How the answer is cut into text deltas (default: the tag line, then sentence by sentence). */
  split?: (text: string) => string[];
  /** Awaited before each sentence after the first (tests hold the model's writing until something happened). */
  beforeSentence?: (index: number) => Promise<void>;
};

export type FakeAnthropic = {
  url: string;
  requests: FakeAnthropicRequest[];
  /** The next request answers this error instead (once). */
  failNext(status: number, type: string, message: string): void;
  /** The next streamed answer sends an `event: error` after its first sentence (once). */
  failMidStream(type: string, message: string): void;
  close(): Promise<void>;
};

const DEFAULT_REPLY = "[intent:greeting]\nHello from the fake model. How can I help you today?";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer in stream pieces: the tag line, then each sentence with its trailing space. */
export function streamPieces(text: string): string[] {
  const pieces: string[] = [];
  // The tag line (with an optional [unanswered: …] tag) arrives as one piece, then each sentence.
  const tag = /^\s*\[intent:[a-z_]+\](?:[ \t]*\[unanswered[^\]\n]*\])?\s*/i.exec(text);
  let rest = text;
  if (tag) {
    pieces.push(tag[0]);
    rest = text.slice(tag[0].length);
  }
  const sentences = rest.match(/[^.!?]+[.!?]+["')\]]*\s*|[^.!?]+$/g) ?? [rest];
  return [...pieces, ...sentences.filter((s) => s.length > 0)];
}

function sse(res: http.ServerResponse, type: string, data: object) {
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
}

export async function startFakeAnthropic(options: FakeAnthropicOptions): Promise<FakeAnthropic> {
  const requests: FakeAnthropicRequest[] = [];
  let nextError: { status: number; type: string; message: string } | null = null;
  let midStreamError: { type: string; message: string } | null = null;
  let counter = 0;

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        let body: FakeAnthropicRequest["body"] = {};
        try {
          body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
        } catch {
          body = {};
        }
        const path = (req.url ?? "/").split("?")[0];
        const request: FakeAnthropicRequest = { method: req.method ?? "GET", path, headers: req.headers, body };
        requests.push(request);
        const fail = (status: number, type: string, message: string) => {
          res.writeHead(status, { "content-type": "application/json", "request-id": `req_fake_${++counter}` });
          res.end(JSON.stringify({ type: "error", error: { type, message } }));
        };

        if (req.method !== "POST" || path !== "/v1/messages") return fail(404, "not_found_error", `No route ${req.method} ${path}`);
        if (req.headers.authorization !== `Bearer ${options.apiKey}`) return fail(401, "authentication_error", "invalid x-api-key");
        if (!req.headers["anthropic-version"]) return fail(400, "invalid_request_error", "anthropic-version header is required");
        if (nextError) {
          const e = nextError;
          nextError = null;
          return fail(e.status, e.type, e.message);
        }
        if (!body.model || !Array.isArray(body.messages) || body.messages.length === 0 || !body.max_tokens) {
          return fail(400, "invalid_request_error", "model, max_tokens and messages are required");
        }

        // The API's own rules for tool use: blocks need `tools`, and every tool_result answers a
        // tool_use of the assistant turn just before it.
        const blocks = (content: unknown) => (Array.isArray(content) ? (content as Record<string, any>[]) : []);
        const usesTools = body.messages.some((m) => blocks(m.content).some((b) => b.type === "tool_use" || b.type === "tool_result"));
        if (usesTools && !body.tools?.length) {
          return fail(400, "invalid_request_error", "Requests which include `tool_use` or `tool_result` blocks must define tools.");
        }
        for (let i = 0; i < body.messages.length; i++) {
          for (const block of blocks(body.messages[i].content)) {
            if (block.type !== "tool_result") continue;
            const previous = blocks(body.messages[i - 1]?.content);
            if (!previous.some((b) => b.type === "tool_use" && b.id === block.tool_use_id)) {
              return fail(400, "invalid_request_error", `tool_result block(s) provided when previous message does not have a matching tool_use (${block.tool_use_id})`);
            }
          }
        }

        const answer = (options.reply ?? (() => DEFAULT_REPLY))(request);
        const text = typeof answer === "string" ? answer : (answer.text ?? "");
        const toolUses = typeof answer === "string" ? [] : answer.toolUses.map((t) => ({ id: t.id ?? `toolu_fake_${++counter}`, name: t.name, input: t.input }));
        const stopReason = toolUses.length ? "tool_use" : "end_turn";
        const id = `msg_fake_${++counter}`;
        const message = { id, type: "message", role: "assistant", model: body.model };
        const usage = { input_tokens: 10, output_tokens: Math.max(1, Math.ceil(text.length / 4)) };
        const toolBlocks = toolUses.map((t) => ({ type: "tool_use", id: t.id, name: t.name, input: t.input }));

        if (!body.stream) {
          res.writeHead(200, { "content-type": "application/json" });
          const content = [...(text ? [{ type: "text", text }] : []), ...toolBlocks];
          res.end(JSON.stringify({ ...message, content, stop_reason: stopReason, stop_sequence: null, usage }));
          return;
        }

        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
        sse(res, "message_start", {
          message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
        });
        let index = 0;
        if (text) {
          sse(res, "content_block_start", { index, content_block: { type: "text", text: "" } });
          sse(res, "ping", {});
          const pieces = (options.split ?? streamPieces)(text);
          await sleep(options.firstTokenDelayMs ?? 0);
          let sentencesSent = 0;
          for (const piece of pieces) {
            const isTag = /^\s*\[intent:/i.test(piece);
            if (!isTag && sentencesSent > 0) {
              await sleep(options.perSentenceDelayMs ?? 0);
              await options.beforeSentence?.(sentencesSent);
            }
            sse(res, "content_block_delta", { index, delta: { type: "text_delta", text: piece } });
            if (!isTag) sentencesSent += 1;
            if (!isTag && midStreamError) {
              const e = midStreamError;
              midStreamError = null;
              sse(res, "error", { error: { type: e.type, message: e.message } });
              res.end();
              return;
            }
          }
          sse(res, "content_block_stop", { index });
          index += 1;
        }
        for (const tool of toolBlocks) {
          sse(res, "content_block_start", { index, content_block: { type: "tool_use", id: tool.id, name: tool.name, input: {} } });
          const json = JSON.stringify(tool.input ?? {});
          const half = Math.ceil(json.length / 2);
          for (const part of [json.slice(0, half), json.slice(half)]) {
            sse(res, "content_block_delta", { index, delta: { type: "input_json_delta", partial_json: part } });
          }
          sse(res, "content_block_stop", { index });
          index += 1;
        }
        sse(res, "message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } });
        sse(res, "message_stop", {});
        res.end();
      })();
    });
  });

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    failNext(status, type, message) {
      nextError = { status, type, message };
    },
    failMidStream(type, message) {
      midStreamError = { type, message };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
