/**
 * A real MCP server built with the official SDK (@modelcontextprotocol/server 2.4, createMcpHandler:
 * protocol 2026-07-28 plus the stateless 2025-era fallback), served over HTTP on 127.0.0.1. Tests and
 * the end-to-end suite register it as a service, watch its health, and let the assistant call its
 * tools. `stop()` closes the port (the service goes unhealthy); `start()` opens it again.
 */
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { serveFetchHandler, type WebServer } from "../helpers/web-server";

export type McpServiceFake = {
  /** The MCP endpoint, e.g. http://127.0.0.1:41234/mcp */
  url: string;
  /** Tool calls received, oldest first. */
  calls: { tool: string; args: Record<string, unknown> }[];
  start(): Promise<void>;
  stop(): Promise<void>;
};

export const FAKE_SERVICE_INFO = { name: "harbor-inventory", version: "2.1.0" };

/** Two tools: check_stock (read) and reserve_item (write). */
export async function startMcpServiceFake(port = 0): Promise<McpServiceFake> {
  const calls: McpServiceFake["calls"] = [];
  const stock: Record<string, number> = { "whitening kit": 4, "electric toothbrush": 0 };
  const handler = createMcpHandler(() => {
    const server = new McpServer(FAKE_SERVICE_INFO);
    server.registerTool(
      "check_stock",
      { description: "How many of an item are in stock.", inputSchema: z.object({ item: z.string() }) },
      async ({ item }) => {
        calls.push({ tool: "check_stock", args: { item } });
        const count = stock[item.toLowerCase()];
        return { content: [{ type: "text", text: count === undefined ? `We do not carry ${item}.` : `${count} ${item} in stock.` }] };
      },
    );
    server.registerTool(
      "reserve_item",
      { description: "Reserves one item for a customer.", inputSchema: z.object({ item: z.string(), customer: z.string() }) },
      async ({ item, customer }) => {
        calls.push({ tool: "reserve_item", args: { item, customer } });
        return { content: [{ type: "text", text: `Reserved one ${item} for ${customer}.` }] };
      },
    );
    return server;
  });
  let web: WebServer | null = null;
  let boundPort = port;
  const fake: McpServiceFake = {
    url: "",
    calls,
    async start() {
      web = await serveFetchHandler((req) => handler.fetch(req), boundPort);
      boundPort = web.port;
      fake.url = `${web.url}/mcp`;
    },
    async stop() {
      await web?.close();
      web = null;
    },
  };
  await fake.start();
  return fake;
}
