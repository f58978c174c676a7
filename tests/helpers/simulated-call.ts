/**
 * A caller on the simulated carrier's client (lib/phone/telephony/simulator/carrier-client.ts) against the
 * real webhooks in this process: says the given lines in turn, hears every clip (each must load),
 * lets no transfer answer and records no voicemail unless a test overrides that part of the host.
 */
import { eq } from "drizzle-orm";
import { calls } from "@/db/schema";
import { getDb } from "@/lib/platform/database";
import { SimulatedCall, type CallEvent, type CallHost } from "@/lib/phone/telephony/simulator/carrier-client";
import { carrierAccountFrom, inProcessTransport } from "./in-process-carrier";
import type { Business } from "./phone";

export function scriptedHost(lines: string[], options: Partial<CallHost> = {}) {
  const events: CallEvent[] = [];
  const played: string[] = [];
  const host: CallHost = {
    async play(url) {
      played.push(url);
      const res = await inProcessTransport.fetch(url);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    },
    async listen() {
      return lines.shift() ?? "";
    },
    async dial() {
      return "no-answer";
    },
    async record() {
      return null;
    },
    onEvent: (e) => events.push(e),
    ...options,
  };
  return { host, events, played };
}

/** Places a call from `from` to the business's number and plays it to the end; answers the call's row too. */
export async function placeSimulatedCall(biz: Business, from: string, lines: string[], options: Partial<CallHost> = {}) {
  const { host, events, played } = scriptedHost(lines, options);
  const call = new SimulatedCall(carrierAccountFrom(biz), inProcessTransport, host, { from, to: biz.phoneNumber });
  await call.start();
  const [row] = await (await getDb()).select().from(calls).where(eq(calls.providerCallSid, call.callSid));
  return { call, events, played, row };
}
