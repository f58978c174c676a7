/**
 * Issue 26 §15: the ConversationRelay URL is wss:// whenever the gateway has a host the carrier
 * reaches (Twilio refuses ws://), and a number's forward-to change reaches the very next call.
 */
import { eq } from "drizzle-orm";
import { phoneNumbers } from "@/db/schema";
import { closeDb, getDb } from "@/lib/platform/database";
import { env } from "@/lib/platform/env";
import { relayUrlFor } from "@/lib/phone/telephony/relay/urls";
import { find } from "../helpers/carrier";
import { business, say, startCall } from "../helpers/phone";

jest.setTimeout(120_000);
afterAll(() => closeDb());

describe("the ConversationRelay URL", () => {
  const mutable = env as { PUBLIC_URL: string; GATEWAY_PUBLIC_URL?: string; GATEWAY_PORT?: number };
  const saved = { PUBLIC_URL: mutable.PUBLIC_URL, GATEWAY_PUBLIC_URL: mutable.GATEWAY_PUBLIC_URL, GATEWAY_PORT: mutable.GATEWAY_PORT };
  afterEach(() => Object.assign(mutable, saved));

  it("is wss:// for a public host, whatever scheme the setting says; ws:// only on loopback", () => {
    mutable.GATEWAY_PUBLIC_URL = undefined;
    mutable.GATEWAY_PORT = 3101;
    mutable.PUBLIC_URL = "http://desk.example.com";
    expect(relayUrlFor("c1")).toBe("wss://desk.example.com:3101/relay?callId=c1");
    mutable.PUBLIC_URL = "https://desk.example.com";
    expect(relayUrlFor("c1")).toBe("wss://desk.example.com:3101/relay?callId=c1");
    mutable.GATEWAY_PUBLIC_URL = "ws://relay.example.com/";
    expect(relayUrlFor("c2")).toBe("wss://relay.example.com/relay?callId=c2");
    mutable.GATEWAY_PUBLIC_URL = "https://relay.example.com/voice";
    expect(relayUrlFor("c3")).toBe("wss://relay.example.com/voice/relay?callId=c3");
    mutable.GATEWAY_PUBLIC_URL = undefined;
    mutable.PUBLIC_URL = "http://localhost:3000";
    expect(relayUrlFor("c4")).toBe("ws://localhost:3101/relay?callId=c4");
  });
});

describe("a number's forward-to", () => {
  it("reaches the next call at once (no cached number)", async () => {
    const biz = await business("Forward Dental", { forwardTo: "+15035550111" });
    const first = await startCall(biz);
    // However slow this machine, both calls fall within any cache's lifetime: the clock stands still.
    const now = Date.now();
    const clock = jest.spyOn(Date, "now").mockReturnValue(now);
    const turn = await say(biz, first.callSid, first.res.verbs[0].attrs.action, "Can I speak to a real person please?");
    expect(find(find(turn.verbs, "Dial")!.children, "Number")!.text).toBe("+15035550111");

    const db = await getDb();
    await db.update(phoneNumbers).set({ forwardTo: "+15035550222" }).where(eq(phoneNumbers.id, biz.numberId));
    const second = await startCall(biz);
    const again = await say(biz, second.callSid, second.res.verbs[0].attrs.action, "Can I speak to a real person please?");
    clock.mockRestore();
    expect(find(find(again.verbs, "Dial")!.children, "Number")!.text).toBe("+15035550222");
  });
});
