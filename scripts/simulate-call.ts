/**
 * npm run simulate:call -- --to +14155550100 --say "What are your opening hours?" --say "Thanks, bye"
 *
 * Places a call (or sends texts) to one of your simulated-carrier numbers on a running Switchboard,
 * exactly as the phone panel does: signed webhook requests, the TwiML followed, and the transcript
 * printed as it happens, with each reply's latency; then the summary once the post-call job wrote it.
 */
import { DOMParser } from "@xmldom/xmldom";
import { SimulatedCall, sendSimulatedSms, type CallHost, type CarrierAccount, type CarrierTransport } from "../lib/phone/telephony/simulator/carrier-client";

type Args = {
  to?: string;
  from: string;
  say: string[];
  text: string[];
  voicemail?: string;
  answerTransfer: boolean;
  url: string;
  email: string;
  password: string;
  wait: boolean;
};

const HELP = `Usage: npm run simulate:call -- [options]

  --to NUMBER          the number to call (default: your first simulated-carrier number)
  --say TEXT           what the caller says at each prompt, in order (repeat it); when they run out, the caller hangs up
  --from NUMBER        the caller's number (default +15555550100)
  --voicemail TEXT     what the caller leaves if the call reaches a voicemail
  --answer-transfer    answer a transfer as the team (default: it rings out and the assistant takes a message)
  --text TEXT          send a text instead of calling (repeat it for a conversation)
  --url URL            where Switchboard runs (default: $PUBLIC_URL, else http://localhost:3000)
  --email, --password  whose organization (default: the demo account demo@switchboard.dev / demo1234)
  --no-wait            do not wait for the call's summary
`;

function parseArgs(argv: string[]): Args {
  const args: Args = {
    from: "+15555550100",
    say: [],
    text: [],
    answerTransfer: false,
    url: process.env.PUBLIC_URL || `http://localhost:${process.env.PORT ?? "3000"}`,
    email: "demo@switchboard.dev",
    password: "demo1234",
    wait: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case "--to":
        args.to = value();
        break;
      case "--from":
        args.from = value();
        break;
      case "--say":
        args.say.push(value());
        break;
      case "--text":
        args.text.push(value());
        break;
      case "--voicemail":
        args.voicemail = value();
        break;
      case "--answer-transfer":
        args.answerTransfer = true;
        break;
      case "--url":
        args.url = value();
        break;
      case "--email":
        args.email = value();
        break;
      case "--password":
        args.password = value();
        break;
      case "--no-wait":
        args.wait = false;
        break;
      case "--help":
      case "-h":
        console.log(HELP);
        process.exit(0);
        break;
      default:
        throw new Error(`Unknown option ${flag}\n\n${HELP}`);
    }
  }
  return args;
}

type Turn = { speaker: string; text: string; latencyMs?: number; kind?: string };

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const base = args.url.replace(/\/+$/, "");
  const api = async <T>(method: string, path: string, body?: unknown, session?: string): Promise<T> => {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: { ...(body ? { "content-type": "application/json" } : {}), ...(session ? { authorization: `Bearer ${session}` } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    } catch (error) {
      throw new Error(`Switchboard is not answering at ${base} (${(error as Error).message}). Start it with \`npm start\`, or pass --url.`);
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
    return JSON.parse(text) as T;
  };

  const { sessionId } = await api<{ sessionId: string }>("POST", "/api/auth/login", { email: args.email, password: args.password });
  const account = await api<{
    voiceUrl: string;
    statusCallbackUrl: string;
    smsUrl: string;
    simulatorRecordingsUrl: string;
    signaturesUsePublicUrl: boolean;
    simulatedCarrier: { accountSid: string; authToken: string };
  }>("GET", "/api/telephony/account", undefined, sessionId);
  const numbers = await api<{ phoneNumber: string; friendlyName: string; provider: string; isActive: boolean }[]>("GET", "/api/phone-numbers", undefined, sessionId);
  const number = args.to ? numbers.find((n) => n.phoneNumber === args.to) : numbers.find((n) => n.provider === "simulated" && n.isActive);
  if (!number) {
    throw new Error(
      args.to
        ? `${args.to} is not one of ${args.email}'s numbers (${numbers.map((n) => n.phoneNumber).join(", ") || "none"}).`
        : `${args.email} has no active simulated-carrier number: add one in Phone Numbers.`,
    );
  }
  if (number.provider !== "simulated") throw new Error(`${number.phoneNumber} is a Twilio number: call it from a phone. The simulator places calls on simulated-carrier numbers only.`);

  const carrier: CarrierAccount = {
    accountSid: account.simulatedCarrier.accountSid,
    authToken: account.simulatedCarrier.authToken,
    voiceUrl: account.voiceUrl,
    statusCallbackUrl: account.statusCallbackUrl,
    smsUrl: account.smsUrl,
    recordingsUrl: account.simulatorRecordingsUrl,
  };
  // Sent to --url; signed for the public URLs the server checks against (or, without PUBLIC_URL, for
  // the URL requested).
  const route = (url: string) => {
    const u = new URL(url);
    return `${base}${u.pathname}${u.search}`;
  };
  const transport: CarrierTransport = {
    fetch,
    parseXml: (xml) => new DOMParser().parseFromString(xml, "text/xml") as never,
    route,
    signedUrl: account.signaturesUsePublicUrl ? undefined : route,
    now: () => performance.now(),
  };

  if (args.text.length) {
    console.log(`Texting ${number.phoneNumber} (${number.friendlyName}) from ${args.from}`);
    for (const body of args.text) {
      console.log(`  you        ${body}`);
      const result = await sendSimulatedSms(carrier, transport, { from: args.from, to: number.phoneNumber, body });
      if (result.replies.length === 0) console.log("  (no reply)");
      for (const reply of result.replies) console.log(`  assistant  ${reply}   [${Math.round(result.ms)} ms]`);
    }
    return;
  }

  console.log(`Calling ${number.phoneNumber} (${number.friendlyName}) from ${args.from}`);
  const lines = [...args.say];
  let printed = 0;
  let call: SimulatedCall | null = null;
  const printNew = async () => {
    if (!call) return;
    try {
      const detail = await api<{ transcript: Turn[] }>("GET", `/api/telephony/calls/${call.callSid}`, undefined, sessionId);
      for (const turn of detail.transcript.slice(printed)) {
        const who = turn.speaker === "caller" ? (turn.kind === "message" ? "caller (message)" : "caller") : turn.speaker;
        console.log(`  ${who.padEnd(17)}${turn.text}${turn.latencyMs !== undefined ? `   [${turn.latencyMs} ms]` : ""}`);
      }
      printed = detail.transcript.length;
    } catch {
      // printed on the next request
    }
  };
  const host: CallHost = {
    async play(url) {
      const res = await fetch(url, { method: "HEAD" });
      if (!res.ok) console.log(`  (the audio at ${url} answered ${res.status})`);
    },
    async say(text) {
      console.log(`  <Say>            ${text}`);
    },
    async listen() {
      const next = lines.shift();
      if (next === undefined) {
        console.log("  (the caller hangs up)");
        call!.hangUp();
        return "";
      }
      return next;
    },
    async dial(to) {
      console.log(`  (transferring to ${to}: ${args.answerTransfer ? "answered" : "no answer"})`);
      return args.answerTransfer ? "completed" : "no-answer";
    },
    async record() {
      if (!args.voicemail) {
        console.log("  (at the beep the caller hangs up without a message)");
        return null;
      }
      console.log(`  (voicemail)      ${args.voicemail}`);
      return { text: args.voicemail };
    },
    onEvent(event) {
      if (event.type === "request") void printNew();
      if (event.type === "unsupported") console.log(`  (<${event.verb}> needs Twilio's media servers: the simulator ends the call)`);
      if (event.type === "ended") ended = `Call ended after ${event.durationSeconds} s (${event.reason}).`;
    },
  };
  let ended = "";
  call = new SimulatedCall(carrier, transport, host, { from: args.from, to: number.phoneNumber, callerName: "Simulator" });
  await call.start();
  await printNew();
  console.log(ended);

  if (!args.wait) return;
  for (let i = 0; i < 30; i++) {
    const detail = await api<{ summary: string | null; analyzedAt: string | null; outcome: string | null; actionItems: string[]; sentiment: string | null; sentimentScore: number | null }>(
      "GET",
      `/api/telephony/calls/${call.callSid}`,
      undefined,
      sessionId,
    );
    if (detail.analyzedAt) {
      console.log(`\nOutcome: ${detail.outcome}   Sentiment: ${detail.sentiment} (${detail.sentimentScore}/5)`);
      console.log(`Summary: ${detail.summary}`);
      for (const item of detail.actionItems) console.log(`  - ${item}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log("\n(The summary is not written yet: is the job runner on? See docs/jobs.md.)");
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
