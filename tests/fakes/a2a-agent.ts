/**
 * A real A2A agent built with the official SDK (@a2a-js/sdk 1.3, A2A v1.0): DefaultRequestHandler
 * with the SDK's own express adapters (agentCardHandler, jsonRpcHandler), served on 127.0.0.1. Tests
 * register it, watch it come online, send it messages and read its answers. It answers a question
 * with a completed task whose status message is "Echo: <text>" (or, with `answerAs: "message"`, a
 * bare message), records what it received, can refuse the next requests with 503 to exercise
 * retries, and `stop()` takes it offline.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { AGENT_CARD_PATH, A2A_PROTOCOL_VERSION, Role, TaskState, type AgentCard, type Message } from "@a2a-js/sdk";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore, type AgentExecutor } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";

export type A2aAgentFake = {
  /** The agent's base URL (its card is at <url>/.well-known/agent-card.json). */
  url: string;
  received: Message[];
  /** How the next answers come back. */
  answerAs: "task" | "message";
  /** The next n JSON-RPC requests answer 503. */
  failNext(n: number): void;
  start(): Promise<void>;
  stop(): Promise<void>;
};

export const FAKE_AGENT_NAME = "Echo Concierge";

function textOf(message: Message): string {
  return message.parts.map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
}

export async function startA2aAgentFake(): Promise<A2aAgentFake> {
  const received: Message[] = [];
  let failures = 0;
  let server: http.Server | null = null;
  let port = 0;

  const fake: A2aAgentFake = {
    url: "",
    received,
    answerAs: "task",
    failNext(n) {
      failures = n;
    },
    async start() {
      const app = express();
      const card: AgentCard = {
        name: FAKE_AGENT_NAME,
        description: "Answers every question with an echo.",
        supportedInterfaces: [{ url: `http://127.0.0.1:${port}/`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: A2A_PROTOCOL_VERSION }],
        provider: { organization: "Tests", url: "https://example.com" },
        version: "3.1.0",
        capabilities: { streaming: false, pushNotifications: false, extensions: [] },
        securitySchemes: {},
        securityRequirements: [],
        defaultInputModes: ["text/plain"],
        defaultOutputModes: ["text/plain"],
        skills: [{ id: "echo", name: "Echo", description: "Says it back", tags: ["echo"], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
        signatures: [],
      };
      const executor: AgentExecutor = {
        async execute(ctx, bus) {
          received.push(ctx.userMessage);
          const reply: Message = {
            messageId: crypto.randomUUID(),
            contextId: ctx.contextId,
            taskId: fake.answerAs === "task" ? ctx.taskId : "",
            role: Role.ROLE_AGENT,
            parts: [{ content: { $case: "text", value: `Echo: ${textOf(ctx.userMessage)}` }, metadata: undefined, filename: "", mediaType: "text/plain" }],
            metadata: undefined,
            extensions: [],
            referenceTaskIds: [],
          };
          if (fake.answerAs === "message") {
            bus.publish(AgentEvent.message(reply));
            return;
          }
          const now = new Date().toISOString();
          bus.publish(
            AgentEvent.task({
              id: ctx.taskId,
              contextId: ctx.contextId,
              status: { state: TaskState.TASK_STATE_SUBMITTED, timestamp: now, message: undefined },
              artifacts: [],
              history: [ctx.userMessage],
              metadata: undefined,
            }),
          );
          bus.publish(
            AgentEvent.statusUpdate({ taskId: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: now, message: reply }, metadata: undefined }),
          );
        },
        async cancelTask() {},
      };
      const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
      app.use((req: http.IncomingMessage & { method: string }, res: http.ServerResponse, next: () => void) => {
        if (req.method === "POST" && failures > 0) {
          failures -= 1;
          res.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
          return;
        }
        next();
      });
      app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
      app.use(jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
      server = await new Promise<http.Server>((resolve) => {
        const s: http.Server = app.listen(port, "127.0.0.1", () => resolve(s));
      });
      port = (server.address() as AddressInfo).port;
      // The card names the interface URL, which needs the port: rebuild it now that the port is known.
      card.supportedInterfaces[0].url = `http://127.0.0.1:${port}/`;
      fake.url = `http://127.0.0.1:${port}`;
    },
    async stop() {
      if (!server) return;
      const s = server;
      server = null;
      s.closeAllConnections();
      await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
  await fake.start();
  return fake;
}
