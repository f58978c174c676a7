import type { z } from "zod";
import type { Db } from "@/db/client";
import type { AccessTokenScope } from "@/lib/identity/access-tokens/scopes";

/**
 * One tool of Switchboard's own MCP server. A tool is one entry in ./index.ts: its name, the scope
 * a token needs to call it, its input schema (zod, sent to clients as JSON Schema) and what it does
 * for the organization the token belongs to. The answer must be a JSON object: it is returned as
 * `structuredContent` and as its JSON text.
 */
export type ToolContext = { db: Db; organizationId: string };

export type SwitchboardTool<S extends z.ZodObject = z.ZodObject> = {
  name: string;
  title: string;
  description: string;
  scope: AccessTokenScope;
  input: S;
  /** True for tools that only read (clients may call them without asking the person). */
  readOnly: boolean;
  run(args: z.infer<S>, ctx: ToolContext): Promise<Record<string, unknown>>;
};

export function defineTool<S extends z.ZodObject>(tool: SwitchboardTool<S>): SwitchboardTool<S> {
  return tool;
}
