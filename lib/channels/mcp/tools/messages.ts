import "server-only";
import { z } from "zod";
import { historyQuery } from "@/lib/receptionist/call-history/schema";
import { getMessageDetail, listHistory } from "@/lib/receptionist/call-history/service";
import { badRequest } from "@/lib/platform/http/errors";
import { sendTextInput } from "@/lib/phone/messages/schema";
import { sendText } from "@/lib/phone/messages/send-text";
import { defineTool } from "./define";

export const listMessagesTool = defineTool({
  name: "list_messages",
  title: "List text messages",
  description: "The organization's text messages (received and sent), newest first, with numbers, body and status. Page with nextCursor.",
  scope: "messages:read",
  readOnly: true,
  input: z.object({
    limit: z.number().int().min(1).max(50).default(20),
    cursor: z.string().max(500).optional(),
    direction: z.enum(["inbound", "outbound"]).optional(),
  }),
  async run(args, { db, organizationId }) {
    const parsed = historyQuery.safeParse({ ...args, type: "message", limit: String(args.limit) });
    if (!parsed.success) throw badRequest(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    const page = await listHistory(db, organizationId, parsed.data);
    return { messages: page.items, nextCursor: page.nextCursor };
  },
});

export const sendTextTool = defineTool({
  name: "send_text",
  title: "Send a text",
  description:
    "Sends a text message from one of the organization's phone numbers (its oldest active number unless fromPhoneNumberId is given) and records it in Call History.",
  scope: "messages:send",
  readOnly: false,
  input: sendTextInput.extend({
    to: sendTextInput.shape.to.describe("The recipient in E.164 form, e.g. +14155550123"),
    body: sendTextInput.shape.body.describe("The text, up to 1,600 characters"),
  }),
  async run(args, { db, organizationId }) {
    const { id } = await sendText(db, organizationId, args);
    return { message: await getMessageDetail(db, organizationId, id) };
  },
});
