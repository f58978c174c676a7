import "server-only";
import { z } from "zod";
import { historyQuery } from "@/lib/receptionist/call-history/schema";
import { getCallDetail, listHistory, searchCalls } from "@/lib/receptionist/call-history/service";
import { callStatuses } from "@/lib/receptionist/call-history/constants";
import { badRequest } from "@/lib/platform/http/errors";
import { defineTool } from "./define";

const limit = z.number().int().min(1).max(50).default(20).describe("How many to return (1–50, default 20)");
const cursor = z.string().max(500).optional().describe("nextCursor from the previous page, to read further back");
const isoDate = z.string().max(40).optional();

function query(input: Record<string, unknown>) {
  const parsed = historyQuery.safeParse(input);
  if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  return parsed.data;
}

export const listCallsTool = defineTool({
  name: "list_calls",
  title: "List calls",
  description:
    "The organization's calls (phone calls and conversations with other AI agents), newest first, with caller, numbers, status, duration, summary and sentiment. status voicemail lists voicemails. Page with nextCursor.",
  scope: "calls:read",
  readOnly: true,
  input: z.object({
    limit,
    cursor,
    direction: z.enum(["inbound", "outbound"]).optional(),
    status: z.enum(callStatuses).optional(),
    from: isoDate.describe("Only calls that started at or after this ISO 8601 time"),
    to: isoDate.describe("Only calls that started at or before this ISO 8601 time"),
  }),
  async run(args, { db, organizationId }) {
    const type = args.status === "voicemail" ? "voicemail" : "call";
    const page = await listHistory(db, organizationId, query({ ...args, type, limit: String(args.limit) }));
    return { calls: page.items, nextCursor: page.nextCursor };
  },
});

export const searchCallsTool = defineTool({
  name: "search_calls",
  title: "Search calls",
  description: "Finds calls whose caller name, phone numbers, summary or transcript contain the words given (case-insensitive), newest first.",
  scope: "calls:read",
  readOnly: true,
  input: z.object({
    query: z.string().trim().min(1).max(200).describe("Text to look for, e.g. a name, a number or a topic"),
    limit,
  }),
  async run(args, { db, organizationId }) {
    return { calls: await searchCalls(db, organizationId, args.query, args.limit) };
  },
});

export const getCallTool = defineTool({
  name: "get_call",
  title: "Get a call",
  description: "One call with its full transcript, summary, sentiment, intent, phone number and assistant.",
  scope: "calls:read",
  readOnly: true,
  input: z.object({ callId: z.string().min(1).max(200).describe("The id from list_calls or search_calls") }),
  async run(args, { db, organizationId }) {
    return { call: await getCallDetail(db, organizationId, args.callId) };
  },
});
