import "server-only";
import { getCallTool, listCallsTool, searchCallsTool } from "./calls";
import { dashboardStatsTool } from "./dashboard";
import type { SwitchboardTool } from "./define";
import { listMessagesTool, sendTextTool } from "./messages";

/**
 * Every tool of Switchboard's MCP server, in the order clients list them. Adding a tool (the
 * receptionist's, appointments) is one entry here plus its file; its scope goes in
 * lib/identity/access-tokens/scopes.ts if it needs a new one.
 */
export const switchboardTools: SwitchboardTool[] = [
  listCallsTool,
  searchCallsTool,
  getCallTool,
  listMessagesTool,
  sendTextTool,
  dashboardStatsTool,
] as unknown as SwitchboardTool[];
