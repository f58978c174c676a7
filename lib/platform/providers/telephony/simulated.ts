import "server-only";
import crypto from "node:crypto";
import { TelephonyError, type AvailableNumber, type Recording, type TelephonyProvider } from "./interface";

/**
 * The simulated carrier, used when no Twilio credentials are configured. Its inventory is the
 * fictional 555-01XX range of every US area code (`+1{areaCode}55501{NN}`, reserved for fiction, so a
 * simulated number can never ring a real person). A number is available while no row of the
 * phone_number table holds it, so numbers are unique per database. No network.
 */
const LOCALITIES: Record<string, { locality: string; region: string }> = {
  "206": { locality: "Seattle", region: "WA" },
  "212": { locality: "New York", region: "NY" },
  "213": { locality: "Los Angeles", region: "CA" },
  "303": { locality: "Denver", region: "CO" },
  "305": { locality: "Miami", region: "FL" },
  "312": { locality: "Chicago", region: "IL" },
  "415": { locality: "San Francisco", region: "CA" },
  "503": { locality: "Portland", region: "OR" },
  "512": { locality: "Austin", region: "TX" },
  "617": { locality: "Boston", region: "MA" },
};

/** Tried in order when no area code is asked for. */
const DEFAULT_AREA_CODES = ["415", "212", "312", "512", "206", "617", "303", "305", "213", "503"];

const AREA_CODE = /^[2-9]\d{2}$/;
const FICTIONAL = /^\+1([2-9]\d{2})55501(\d{2})$/;

export function isSimulatedNumber(phoneNumber: string): boolean {
  return FICTIONAL.test(phoneNumber);
}

function rangeOf(areaCode: string): string[] {
  return Array.from({ length: 100 }, (_, n) => `+1${areaCode}55501${String(n).padStart(2, "0")}`);
}

function describe(phoneNumber: string): AvailableNumber {
  const areaCode = FICTIONAL.exec(phoneNumber)?.[1] ?? "";
  return { phoneNumber, ...LOCALITIES[areaCode] };
}

function newSid(): string {
  return `PN${crypto.randomBytes(16).toString("hex")}`;
}

/** Which of these numbers are held already (the caller looks in its own records). */
export type TakenNumbers = (candidates: string[]) => Promise<string[]>;

/** The simulated carrier's recording storage (recordings the phone panel or the simulator made). */
export type RecordingStore = (recordingSid: string) => Promise<Recording | null>;
/** Deletes one of the simulated carrier's recordings; answers whether it had it. */
export type RecordingRemover = (recordingSid: string) => Promise<boolean>;

export function createSimulatedProvider(takenAmong: TakenNumbers, recordings?: RecordingStore, removeRecording?: RecordingRemover): TelephonyProvider {
  async function freeIn(areaCode: string, limit: number): Promise<string[]> {
    const range = rangeOf(areaCode);
    const used = new Set(await takenAmong(range));
    return range.filter((n) => !used.has(n)).slice(0, limit);
  }

  return {
    name: "simulated",

    async searchAvailable({ areaCode, limit }) {
      if (areaCode !== undefined && !AREA_CODE.test(areaCode)) {
        throw new TelephonyError(`"${areaCode}" is not a US area code.`, "invalid");
      }
      const codes = areaCode ? [areaCode] : DEFAULT_AREA_CODES;
      for (const code of codes) {
        const free = await freeIn(code, limit);
        if (free.length) return free.map(describe);
      }
      return [];
    },

    async buyNumber({ phoneNumber }) {
      if (!isSimulatedNumber(phoneNumber)) {
        throw new TelephonyError(
          `${phoneNumber} is not available from the simulated carrier, which only has fictional 555-01XX numbers.`,
          "unavailable",
        );
      }
      const [taken] = await takenAmong([phoneNumber]);
      if (taken) throw new TelephonyError(`${phoneNumber} is no longer available.`, "unavailable");
      return { sid: newSid(), phoneNumber };
    },

    async verifyExistingNumber() {
      // Nothing to prove against: the simulated carrier accepts any number you say you own.
      return { verified: true, sid: newSid(), kind: "incoming" };
    },

    async startCallerIdVerification() {
      // The simulated carrier "calls" the number: the owner keys the code into the simulated handset
      // (POST /api/phone-numbers/{id}/ownership/answer), which reports back like Twilio's callback.
      return { code: String(crypto.randomInt(100000, 1000000)), callSid: `CA${crypto.randomBytes(16).toString("hex")}` };
    },

    async placeTestCall() {
      // Placed from Switchboard itself: lib/phone/numbers/ownership.ts posts the signed voice webhook.
      return { callSid: `CA${crypto.randomBytes(16).toString("hex")}` };
    },

    async releaseNumber() {
      // The inventory is the table: deleting the row (the caller does) puts the number back on sale.
    },

    async setWebhooks() {
      // No network: calls to a simulated number are placed from Switchboard itself.
    },

    async sendSms({ to, body }) {
      // The simulated handset receives it at once: the owner sees it in the thread as delivered.
      if (!/^\+[1-9]\d{6,14}$/.test(to)) throw new TelephonyError(`${to} is not a phone number in E.164 form.`, "invalid");
      if (!body.trim()) throw new TelephonyError("A text needs a body.", "invalid");
      return { sid: `SM${crypto.randomBytes(16).toString("hex")}`, status: "delivered" };
    },

    async fetchRecording(recordingSid) {
      const found = recordings ? await recordings(recordingSid) : null;
      if (!found) throw new TelephonyError(`The simulated carrier has no recording ${recordingSid}.`, "not_found");
      return found;
    },

    async deleteRecording(recordingSid) {
      return { deleted: removeRecording ? await removeRecording(recordingSid) : false };
    },
  };
}
