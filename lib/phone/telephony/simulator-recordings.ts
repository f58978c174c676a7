import "server-only";
import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { audioClips, calls, telephonyAccounts } from "@/db/schema";
import { DEFAULT_VOICE, resolveVoice } from "@/lib/agents/assistants/voices";
import { getBlobStore } from "@/lib/platform/blob-store";
import { decryptSecret } from "@/lib/platform/crypto/secret-box";
import { badRequest, HttpError, notFound } from "@/lib/platform/http/errors";
import { selectTts } from "@/lib/workspace/provider-selection/tts";
import { audioDurationMs, concatAudio } from "@/lib/phone/voice/audio";
import { getOrganizationClip, saveAudioClip } from "@/lib/phone/voice/audio-clips";
import { twilioSid } from "./signature";
import { telephonyUrl } from "./urls";

/**
 * The simulated carrier's recording storage — what Twilio's Recordings resource is for a real
 * number. The phone panel and `simulate:call` answer a <Record> by uploading the caller's message:
 * audio recorded in the browser, or text that is spoken into a recording by the organization's
 * speech provider (a real audio file, which the voicemail job then fetches and transcribes like
 * any other). Authenticated like Twilio's REST API: Basic AccountSid:AuthToken of the simulated account.
 */

const segment = z.union([
  z.object({ speaker: z.enum(["assistant", "caller"]), say: z.string().trim().min(1).max(2000) }),
  z.object({ speaker: z.literal("assistant"), play: z.string().min(1).max(2000) }),
]);

export const uploadRecordingInput = z
  .object({
    callSid: z.string().regex(/^CA[0-9a-f]{32}$/i, "callSid must be CA followed by 32 hexadecimal characters"),
    text: z.string().trim().min(1, "Say something for the recording").max(2000, "At most 2,000 characters").optional(),
    /** A whole-call recording (<Start><Recording>): what was played, said and heard, in order. */
    segments: z.array(segment).min(1, "A recording needs something in it").max(200, "At most 200 segments").optional(),
    audioBase64: z.string().max(1_300_000, "The recording is larger than about 1 MB").optional(),
    contentType: z.enum(["audio/wav", "audio/webm", "audio/ogg", "audio/mpeg"], "contentType must be audio/wav, audio/webm, audio/ogg or audio/mpeg").optional(),
  })
  .refine((v) => [v.text, v.audioBase64, v.segments].filter(Boolean).length === 1, { message: "Send one of text, audioBase64 or segments", path: ["text"] });
export type UploadRecordingInput = z.infer<typeof uploadRecordingInput>;

const unauthorizedCarrier = () =>
  new HttpError(401, "Authenticate with the simulated carrier's Account SID and auth token (HTTP Basic).", undefined, { "WWW-Authenticate": 'Basic realm="Switchboard simulated carrier"' });

/** The organization of a Basic AccountSid:AuthToken pair of the simulated carrier. */
export async function authenticateCarrierAccount(db: Db, authorization: string | null): Promise<{ organizationId: string; accountSid: string }> {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(authorization ?? "");
  if (!match) throw unauthorizedCarrier();
  const decoded = Buffer.from(match[1], "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  const accountSid = decoded.slice(0, colon);
  const token = decoded.slice(colon + 1);
  if (colon < 0 || !/^AC[0-9a-f]{32}$/.test(accountSid)) throw unauthorizedCarrier();
  const [row] = await db.select().from(telephonyAccounts).where(eq(telephonyAccounts.accountSid, accountSid));
  if (!row) throw unauthorizedCarrier();
  const expected = Buffer.from(decryptSecret(row.authTokenCiphertext));
  const given = Buffer.from(token);
  if (expected.length !== given.length || !crypto.timingSafeEqual(expected, given)) throw unauthorizedCarrier();
  return { organizationId: row.organizationId, accountSid };
}

export async function uploadRecording(db: Db, account: { organizationId: string; accountSid: string }, input: UploadRecordingInput) {
  const [call] = await db
    .select({ id: calls.id, provider: calls.provider })
    .from(calls)
    .where(and(eq(calls.providerCallSid, input.callSid), eq(calls.organizationId, account.organizationId)));
  if (!call || call.provider !== "simulated") throw notFound("Call");

  let audio: Buffer;
  let contentType: string;
  if (input.segments) {
    ({ audio, contentType } = await recordWholeCall(db, account.organizationId, input.segments));
  } else if (input.text) {
    const tts = await selectTts(db, account.organizationId);
    // The caller's voice, not the assistant's.
    const result = await tts.synthesize(input.text, resolveVoice("onyx"));
    audio = result.audio;
    contentType = result.contentType;
  } else {
    audio = Buffer.from(input.audioBase64!, "base64");
    contentType = input.contentType ?? "audio/webm";
    if (audio.length < 100) throw badRequest("The recording is empty", { audioBase64: "The recording is empty" });
  }
  const sid = twilioSid("RE");
  const durationMs = audioDurationMs(audio, contentType);
  await saveAudioClip(db, getBlobStore(), { id: sid, organizationId: account.organizationId, audio, contentType, durationMs, source: "recording" });
  return {
    sid,
    accountSid: account.accountSid,
    callSid: input.callSid,
    contentType,
    durationSeconds: durationMs === null ? null : Math.max(1, Math.round(durationMs / 1000)),
    url: `${telephonyUrl("simulatorRecordings")}/${sid}`,
  };
}

/**
 * The audio of a whole call as the carrier heard it: the assistant's clips as they were played (the
 * organization's own audio clips), its <Say>s and the caller's words spoken by the speech provider
 * (the caller in another voice), joined into one file. When the parts cannot be joined (different
 * formats), the whole conversation is spoken again in one go, so a recording always exists.
 */
async function recordWholeCall(db: Db, organizationId: string, segments: NonNullable<UploadRecordingInput["segments"]>): Promise<{ audio: Buffer; contentType: string }> {
  const tts = await selectTts(db, organizationId);
  const parts: { audio: Buffer; contentType: string }[] = [];
  const lines: string[] = [];
  for (const s of segments) {
    if ("play" in s) {
      const id = /\/api\/audio\/([^/?#]+)/.exec(s.play)?.[1];
      const clip = id ? await getOrganizationClip(db, organizationId, decodeURIComponent(id)) : null;
      const bytes = clip ? await getBlobStore().get(clip.storageKey) : null;
      if (clip?.speechText) lines.push(clip.speechText);
      if (bytes && clip) parts.push({ audio: bytes, contentType: clip.contentType });
      else if (clip?.speechText) parts.push(await tts.synthesize(clip.speechText, resolveVoice(clip.voiceId ?? DEFAULT_VOICE)));
      continue;
    }
    lines.push(s.say);
    parts.push(await tts.synthesize(s.say, resolveVoice(s.speaker === "caller" ? "onyx" : DEFAULT_VOICE)));
  }
  const contentType = parts[0]?.contentType;
  if (contentType && parts.every((p) => p.contentType === contentType)) {
    try {
      return { audio: concatAudio(parts.map((p) => p.audio), contentType), contentType };
    } catch {
      // Clips of different sample rates: spoken again below.
    }
  }
  const spoken = await tts.synthesize(lines.join(" ") || "…", resolveVoice(DEFAULT_VOICE));
  return { audio: spoken.audio, contentType: spoken.contentType };
}

/** GET …/recordings/{sid}: the recording's bytes, to its account only. */
export async function downloadRecording(db: Db, account: { organizationId: string }, sid: string): Promise<Response> {
  const [clip] = await db
    .select()
    .from(audioClips)
    .where(and(eq(audioClips.id, sid), eq(audioClips.organizationId, account.organizationId), eq(audioClips.source, "recording")));
  if (!clip) throw notFound("Recording");
  const audio = await getBlobStore().get(clip.storageKey);
  if (!audio) throw notFound("Recording");
  return new Response(new Uint8Array(audio), { headers: { "content-type": clip.contentType, "content-length": String(audio.length), "cache-control": "private, no-store" } });
}
