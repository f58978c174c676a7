import crypto from "node:crypto";
import { count } from "drizzle-orm";
import type { Db } from "@/lib/platform/database";
import { assistantReplies, calls, messages, organizations, phoneNumbers, services, voiceAssistants, type TranscriptTurn } from "@/db/schema";
import { registerAccount } from "@/lib/consoles/signup/account";
import { env } from "@/lib/platform/env";
import { demoAccount, demoAdminAccount, demoMasterAccount, demoOrganizationName } from "@/lib/consoles/demo-accounts";
import { changeCredits } from "@/lib/workspace/billing/ledger";
import { getPlan } from "@/lib/workspace/billing/plans";
import { recordKnowledgeGap } from "@/lib/knowledge/gaps/service";
import { createOrganization } from "@/lib/identity/organizations/service";
import { createRandom } from "./random";
import { demoBusinessProfile, demoServices, unansweredQuestions } from "./business";
import { createCallerBook } from "./callers";
import { scenarios, spamCallers } from "./scenarios";

const DAY = 24 * 60 * 60 * 1000;

/** True when the database has no organization yet (a first start). */
export async function isEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(organizations);
  return row.n === 0;
}

/**
 * The demo organization, its three accounts, and 30 days of activity: calls with transcripts and
 * summaries, texts, and assistant replies with their timings. Dates are relative to `now`, so the
 * dashboard and the analytics always have recent data.
 */
export async function seedDemo(db: Db, now = new Date()) {
  const random = createRandom(20261123);
  const org = await createOrganization(db, {
    name: demoOrganizationName,
    tier: "pro",
    businessProfile: demoBusinessProfile(now),
  });
  await db.insert(services).values(demoServices.map((service) => ({ id: crypto.randomUUID(), organizationId: org.id, ...service })));

  await changeCredits(db, org.id, "grant", getPlan("pro").initialCredits, {
    reason: "Welcome credits for the Pro plan",
    reference: "signup",
  });

  const headers = new Headers();
  for (const account of [demoAccount, demoAdminAccount, demoMasterAccount]) {
    await registerAccount(db, { ...account, organizationId: org.id }, headers);
  }

  const assistants = await db
    .insert(voiceAssistants)
    .values([
      {
        id: crypto.randomUUID(),
        organizationId: org.id,
        name: "Front Desk",
        description: "Answers daytime calls, books appointments and answers questions about the studio.",
        personality: "friendly",
        instructions: "Greet callers warmly, offer the next free appointment, never quote prices you do not have.",
        voice: "alloy",
        greeting: "Thanks for calling Harbor Dental Studio, this is the front desk. How can I help?",
        isActive: true,
        createdAt: new Date(now.getTime() - 40 * DAY),
      },
      {
        id: crypto.randomUUID(),
        organizationId: org.id,
        name: "After-hours Receptionist",
        description: "Takes messages and handles emergencies when the studio is closed.",
        personality: "professional",
        instructions: "Explain we are closed, take a message, and give the emergency line for severe pain.",
        voice: "nova",
        greeting: "You've reached Harbor Dental Studio after hours. I can take a message or help with an emergency.",
        isActive: true,
        createdAt: new Date(now.getTime() - 35 * DAY),
      },
      {
        id: crypto.randomUUID(),
        organizationId: org.id,
        name: "Spanish Line",
        description: "Spanish-speaking receptionist, paused until the Spanish number is live.",
        personality: "caring",
        instructions: "Answer in Spanish; offer to book or take a message.",
        voice: "shimmer",
        greeting: "Gracias por llamar a Harbor Dental Studio. ¿En qué puedo ayudarle?",
        isActive: false,
        createdAt: new Date(now.getTime() - 10 * DAY),
      },
    ])
    .returning();

  const numbers = await db
    .insert(phoneNumbers)
    .values([
      {
        id: crypto.randomUUID(),
        organizationId: org.id,
        phoneNumber: "+15035550142",
        friendlyName: "Main line",
        isActive: true,
        provider: "simulated",
        twilioSid: `PN${crypto.randomBytes(16).toString("hex")}`,
        assistantId: assistants[0].id,
        createdAt: new Date(now.getTime() - 40 * DAY),
      },
      {
        id: crypto.randomUUID(),
        organizationId: org.id,
        phoneNumber: "+15035550187",
        friendlyName: "After-hours",
        isActive: true,
        provider: "simulated",
        twilioSid: `PN${crypto.randomBytes(16).toString("hex")}`,
        assistantId: assistants[1].id,
        createdAt: new Date(now.getTime() - 35 * DAY),
      },
    ])
    .returning();

  const callRows: (typeof calls.$inferInsert)[] = [];

  // One caller name per phone number, one number per name: a number that calls again is the same person.
  const callers = createCallerBook(random);
  const replyRows: (typeof assistantReplies.$inferInsert)[] = [];
  const messageRows: (typeof messages.$inferInsert)[] = [];

  for (let i = 0; i < 140; i++) {
    const startedAt = new Date(now.getTime() - random.next() * 30 * DAY);
    const number = random.pick(numbers);
    const assistant = number.assistantId === assistants[0].id ? assistants[0] : assistants[1];
    const id = crypto.randomUUID();
    const roll = random.next();
    if (roll < 0.07) {
      const spam = random.pick(spamCallers);
      const fromNumber = callers.spamNumber();
      callRows.push({
        id, organizationId: org.id, phoneNumberId: number.id, assistantId: assistant.id, direction: "inbound",
        fromNumber, toNumber: number.phoneNumber, status: "completed", startedAt,
        endedAt: new Date(startedAt.getTime() + 12_000), durationSeconds: 12,
        transcript: [{ speaker: "caller", text: spam.line, at: startedAt.toISOString() }],
        summary: spam.summary, sentiment: "neutral", intent: "spam", isSpam: true,
      });
      continue;
    }
    const scenario = random.pick(scenarios);
    const { number: fromNumber, name: callerName } = callers.pick();
    if (roll < 0.17) {
      callRows.push({
        id, organizationId: org.id, phoneNumberId: number.id, assistantId: assistant.id, direction: "inbound",
        fromNumber, toNumber: number.phoneNumber, callerName, status: "missed", startedAt,
        endedAt: new Date(startedAt.getTime() + 25_000), durationSeconds: 0, transcript: [],
        summary: "Missed call: the caller hung up before the assistant answered.", intent: scenario.intent,
      });
      continue;
    }
    const voicemail = roll < 0.27;
    const transcript: TranscriptTurn[] = [];
    let t = startedAt.getTime();
    const turns = Math.max(scenario.caller.length, scenario.assistant.length);
    for (let turn = 0; turn < turns; turn++) {
      if (scenario.caller[turn]) {
        transcript.push({ speaker: "caller", text: scenario.caller[turn], at: new Date(t).toISOString() });
        t += random.int(3_000, 9_000);
      }
      if (!voicemail && scenario.assistant[turn]) {
        const llmFirst = random.int(180, 650);
        const llmTotal = llmFirst + random.int(60, 420);
        const ttsFirst = random.int(70, 260);
        const ttsTotal = ttsFirst + random.int(40, 300);
        const total = llmTotal + ttsTotal + random.int(4, 25);
        transcript.push({ speaker: "assistant", text: scenario.assistant[turn], at: new Date(t).toISOString() });
        replyRows.push({
          id: crypto.randomUUID(), organizationId: org.id, assistantId: assistant.id, callId: id, source: "call",
          intent: scenario.intent, inputText: scenario.caller[turn] ?? scenario.caller[scenario.caller.length - 1],
          replyText: scenario.assistant[turn], llmProvider: "local", ttsProvider: "offline",
          llmFirstTokenMs: llmFirst, llmTotalMs: llmTotal, ttsFirstByteMs: ttsFirst, ttsTotalMs: ttsTotal,
          totalMs: total, createdAt: new Date(t),
        });
        t += random.int(4_000, 12_000);
      }
    }
    const durationSeconds = Math.round((t - startedAt.getTime()) / 1000);
    callRows.push({
      id, organizationId: org.id, phoneNumberId: number.id, assistantId: assistant.id, direction: "inbound",
      fromNumber, toNumber: number.phoneNumber, callerName, status: voicemail ? "voicemail" : "completed", startedAt,
      endedAt: new Date(t), durationSeconds, transcript,
      summary: voicemail ? `Voicemail: ${scenario.summary}` : scenario.summary,
      sentiment: scenario.sentiment, intent: scenario.intent,
    });

    if (scenario.text && random.chance(0.6)) {
      const at = new Date(startedAt.getTime() + random.int(1, 48) * 60 * 60 * 1000);
      if (at < now) {
        messageRows.push(
          {
            id: crypto.randomUUID(), organizationId: org.id, phoneNumberId: number.id, direction: "inbound",
            fromNumber, toNumber: number.phoneNumber, body: scenario.text.inbound, status: "received",
            intent: scenario.intent, createdAt: at,
          },
          {
            id: crypto.randomUUID(), organizationId: org.id, phoneNumberId: number.id, direction: "outbound",
            fromNumber: number.phoneNumber, toNumber: fromNumber, body: scenario.text.outbound, status: "delivered",
            intent: scenario.intent, createdAt: new Date(at.getTime() + random.int(2_000, 20_000)),
          },
        );
      }
    }
  }
  messageRows.push({
    id: crypto.randomUUID(), organizationId: org.id, phoneNumberId: numbers[0].id, direction: "inbound",
    fromNumber: "+15035559000", toNumber: numbers[0].phoneNumber, body: "WINNER! Claim your free cruise now: reply YES",
    status: "received", isSpam: true, intent: "spam", createdAt: new Date(now.getTime() - 2 * DAY),
  });

  // Questions the assistant could not answer from the profile: calls that logged knowledge gaps.
  const gapCalls: { callId: string; question: string; reply: string; at: Date }[] = [];
  for (const gap of unansweredQuestions) {
    for (let n = 0; n < gap.times; n++) {
      const startedAt = new Date(now.getTime() - random.next() * 6 * DAY);
      const number = numbers[0];
      const id = crypto.randomUUID();
      const reply = gap.reply;
      const gapCaller = callers.pick();
      const askedAt = new Date(startedAt.getTime() + 6_000);
      callRows.push({
        id, organizationId: org.id, phoneNumberId: number.id, assistantId: assistants[0].id, direction: "inbound",
        fromNumber: gapCaller.number, toNumber: number.phoneNumber,
        callerName: gapCaller.name, status: "completed", startedAt,
        endedAt: new Date(startedAt.getTime() + 40_000), durationSeconds: 40,
        transcript: [
          { speaker: "assistant", text: assistants[0].greeting, at: startedAt.toISOString() },
          { speaker: "caller", text: gap.question, at: askedAt.toISOString() },
          { speaker: "assistant", text: reply, at: new Date(askedAt.getTime() + 2_000).toISOString() },
        ],
        summary: `Caller asked "${gap.question}"; the assistant did not know and noted it for the team.`,
        sentiment: "neutral", intent: "other",
      });
      gapCalls.push({ callId: id, question: gap.question, reply, at: askedAt });
    }
  }

  await db.insert(calls).values(callRows);
  for (let i = 0; i < replyRows.length; i += 200) await db.insert(assistantReplies).values(replyRows.slice(i, i + 200));
  await db.insert(messages).values(messageRows);
  for (const gap of gapCalls.sort((a, b) => a.at.getTime() - b.at.getTime())) {
    await recordKnowledgeGap(db, { organizationId: org.id, question: gap.question, source: "call", callId: gap.callId, assistantId: assistants[0].id, replyText: gap.reply, at: gap.at });
  }
  return { organizationId: org.id, calls: callRows.length, messages: messageRows.length, replies: replyRows.length };
}

/** Seeds the demo data on a first start (an empty database) unless SEED_DEMO_DATA=false. */
export async function seedIfEmpty(db: Db) {
  if (!env.SEED_DEMO_DATA) return null;
  if (!(await isEmpty(db))) return null;
  return seedDemo(db);
}
