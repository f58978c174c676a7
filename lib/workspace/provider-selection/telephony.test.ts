import crypto from "node:crypto";
import { closeDb, getDb } from "@/lib/platform/database";
import { phoneNumbers, providerCredentials } from "@/db/schema";
import { encryptSecret } from "@/lib/platform/crypto/secret-box";
import { createOrganization } from "@/lib/identity/organizations/service";
import { TelephonyError } from "@/lib/platform/providers/telephony/interface";
import { getTelephonyProvider, getTelephonyProviderFor, simulatedInventory, telephonyWebhookUrls } from "./telephony";
import { createSimulatedProvider, isSimulatedNumber } from "@/lib/platform/providers/telephony/simulated";

afterAll(() => closeDb());

// With DATABASE_URL the database is shared with other test files: use an area code nobody else does.
const AREA = "989";

describe("simulated carrier", () => {
  it("offers the fictional 555-01XX range of an area code, skipping numbers already in the table", async () => {
    const db = await getDb();
    const org = await createOrganization(db, { name: "Sim test" });
    const carrier = createSimulatedProvider(simulatedInventory(db));

    const first = await carrier.searchAvailable({ areaCode: AREA, limit: 3 });
    expect(first.map((n) => n.phoneNumber)).toEqual([`+1${AREA}5550100`, `+1${AREA}5550101`, `+1${AREA}5550102`]);
    expect(first.every((n) => isSimulatedNumber(n.phoneNumber))).toBe(true);

    const bought = await carrier.buyNumber({ phoneNumber: first[0].phoneNumber, voiceUrl: "v", smsUrl: "s" });
    expect(bought.sid).toMatch(/^PN[0-9a-f]{32}$/);
    await db.insert(phoneNumbers).values({
      id: crypto.randomUUID(),
      organizationId: org.id,
      phoneNumber: bought.phoneNumber,
      friendlyName: "Taken",
      twilioSid: bought.sid,
    });

    const next = await carrier.searchAvailable({ areaCode: AREA, limit: 1 });
    expect(next.map((n) => n.phoneNumber)).toEqual([`+1${AREA}5550101`]);
    await expect(carrier.buyNumber({ phoneNumber: bought.phoneNumber, voiceUrl: "v", smsUrl: "s" })).rejects.toMatchObject({
      kind: "unavailable",
    });
  });

  it("knows the locality of common area codes and searches a default one without an area code", async () => {
    const carrier = createSimulatedProvider(simulatedInventory(await getDb()));
    const [pdx] = await carrier.searchAvailable({ areaCode: "503", limit: 1 });
    expect(pdx).toMatchObject({ locality: "Portland", region: "OR" });
    const [any] = await carrier.searchAvailable({ limit: 1 });
    expect(isSimulatedNumber(any.phoneNumber)).toBe(true);
  });

  it("sells only fictional numbers, refuses a bad area code, and accepts any number brought in", async () => {
    const carrier = createSimulatedProvider(simulatedInventory(await getDb()));
    await expect(carrier.buyNumber({ phoneNumber: "+14155551234", voiceUrl: "v", smsUrl: "s" })).rejects.toBeInstanceOf(TelephonyError);
    await expect(carrier.searchAvailable({ areaCode: "041", limit: 1 })).rejects.toMatchObject({ kind: "invalid" });
    const verified = await carrier.verifyExistingNumber("+14155551234");
    expect(verified).toMatchObject({ verified: true, kind: "incoming" });
    expect(verified.sid).toMatch(/^PN/);
    await expect(carrier.releaseNumber(verified.sid!)).resolves.toBeUndefined();
    await expect(carrier.setWebhooks(verified.sid!, { voiceUrl: "v", smsUrl: "s" })).resolves.toBeUndefined();
  });
});

describe("telephony provider selection", () => {
  it("uses the organization's saved Twilio credential, else the simulated carrier", async () => {
    const db = await getDb();
    const plain = await createOrganization(db, { name: "No keys" });
    const withKeys = await createOrganization(db, { name: "Has Twilio" });
    await db.insert(providerCredentials).values({
      id: crypto.randomUUID(),
      organizationId: withKeys.id,
      provider: "twilio",
      ciphertext: encryptSecret(JSON.stringify({ accountSid: `AC${"0".repeat(32)}`, authToken: "token" })),
      hint: "oken",
    });

    expect((await getTelephonyProvider(db, plain.id)).name).toBe("simulated");
    expect((await getTelephonyProvider(db, withKeys.id)).name).toBe("twilio");
    expect((await getTelephonyProviderFor(db, plain.id, "simulated"))?.name).toBe("simulated");
    expect(await getTelephonyProviderFor(db, plain.id, "twilio")).toBeNull();
    expect((await getTelephonyProviderFor(db, withKeys.id, "twilio"))?.name).toBe("twilio");
  });

  it("points webhooks at PUBLIC_URL's telephony routes", () => {
    const base = (process.env.PUBLIC_URL ?? "").replace(/\/+$/, "");
    expect(telephonyWebhookUrls()).toEqual({
      voiceUrl: `${base}/api/telephony/voice`,
      smsUrl: `${base}/api/telephony/sms`,
      statusCallbackUrl: `${base}/api/telephony/status`,
    });
  });
});
