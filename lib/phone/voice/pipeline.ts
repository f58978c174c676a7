import type { Voice } from "@/lib/agents/assistants/voices";
import type { LlmProvider, Reply, ReplyInput } from "@/lib/platform/providers/llm/interface";
import type { TtsProvider } from "@/lib/platform/providers/tts/interface";
import { audioDurationMs, concatAudio } from "./audio";
import { takeSentences } from "@/lib/platform/text/sentences";

/**
 * One voice turn: the language model's reply, then its audio.
 *
 * - "overlapped" (streamed): the model's text is read as it streams; as soon as a sentence is
 *   complete its synthesis starts, while the model keeps writing. At most two synthesis requests
 *   run at once per turn, and the clips are joined in sentence order into one file
 *   (WAV: one header over all the PCM; MP3: frames back to back). The first audio byte therefore
 *   arrives after the model's first sentence plus the speech provider's first-byte latency, not
 *   after the whole reply.
 * - "sequential": the whole reply first, then one synthesis of all of it. The route uses it with
 *   the local responder, which answers in well under a millisecond (overlapping buys nothing there
 *   and would blur the per-stage timings); the benchmark uses it as the baseline.
 *
 * Timings (ms): llmFirstTokenMs (model start → first text), llmTotalMs (model start → end),
 * ttsFirstByteMs (first synthesis request → its first byte), ttsTotalMs (time spent in synthesis
 * requests, summed), firstAudioByteMs (turn start → first audio byte), pipelineMs (whole turn).
 */
export type PipelineMode = "overlapped" | "sequential";

export type TurnTimings = {
  llmFirstTokenMs: number | null;
  llmTotalMs: number;
  ttsFirstByteMs: number | null;
  ttsTotalMs: number;
  firstAudioByteMs: number | null;
  pipelineMs: number;
};

export type TurnResult = {
  reply: Reply;
  audio: Buffer;
  contentType: string;
  durationMs: number | null;
  /** How many synthesis requests the reply took (sentences in overlapped mode, 1 in sequential). */
  segments: number;
  mode: PipelineMode;
  timings: TurnTimings;
};

export type TurnInput = {
  llm: LlmProvider;
  tts: TtsProvider;
  voice: Voice;
  input: ReplyInput;
  mode: PipelineMode;
  signal?: AbortSignal;
};

/** Which stage failed, so the caller can name the provider. */
export class PipelineError extends Error {
  constructor(
    readonly stage: "llm" | "tts",
    readonly cause: unknown,
  ) {
    super((cause as Error)?.message ?? String(cause));
    this.name = "PipelineError";
  }
}

const now = () => performance.now();

/** Sentences synthesized at once in overlapped mode: the next one is fetched while one streams. */
export const SYNTHESIS_CONCURRENCY = 2;

export async function runVoiceTurn({ llm, tts, voice, input, mode, signal }: TurnInput): Promise<TurnResult> {
  const t0 = now();
  const abort = new AbortController();
  const onAbort = () => abort.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });

  let llmFirstTokenMs: number | null = null;
  let llmTotalMs = 0;
  let ttsFirstByteMs: number | null = null;
  let firstAudioByteMs: number | null = null;
  let ttsTotalMs = 0;
  const parts: Buffer[] = [];

  async function synthesize(text: string, index: number): Promise<void> {
    const start = now();
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of tts.synthesizeStream(text, voice, { signal: abort.signal })) {
        if (chunks.length === 0 && index === 0) {
          const at = now();
          ttsFirstByteMs = at - start;
          firstAudioByteMs = at - t0;
        }
        chunks.push(chunk);
      }
    } catch (error) {
      throw new PipelineError("tts", error);
    } finally {
      ttsTotalMs += now() - start;
    }
    parts[index] = Buffer.concat(chunks);
  }

  try {
    let reply: Reply | null = null;
    let segments = 0;
    const llmStart = now();

    if (mode === "sequential") {
      try {
        for await (const event of llm.streamReply(input, { signal: abort.signal })) {
          if (event.type === "delta" && llmFirstTokenMs === null) llmFirstTokenMs = now() - llmStart;
          if (event.type === "done") reply = event.reply;
        }
      } catch (error) {
        throw new PipelineError("llm", error);
      }
      llmTotalMs = now() - llmStart;
      if (!reply) throw new PipelineError("llm", new Error("The language model returned no reply"));
      await synthesize(reply.text, 0);
      segments = 1;
    } else {
      // Synthesis runs behind the model: each finished sentence starts as soon as it is written,
      // with at most SYNTHESIS_CONCURRENCY requests in flight (sentence k waits for k − 2 to finish).
      const tasks: Promise<void>[] = [];
      const enqueue = (sentence: string) => {
        const index = segments++;
        const gate = tasks[index - SYNTHESIS_CONCURRENCY] ?? Promise.resolve();
        const task = gate.then(() => synthesize(sentence, index));
        task.catch(() => undefined); // awaited below; never an unhandled rejection meanwhile
        tasks.push(task);
      };
      let buffer = "";
      try {
        for await (const event of llm.streamReply(input, { signal: abort.signal })) {
          if (event.type === "delta") {
            if (llmFirstTokenMs === null) llmFirstTokenMs = now() - llmStart;
            buffer += event.text;
            const { sentences, rest } = takeSentences(buffer);
            buffer = rest;
            sentences.forEach(enqueue);
          } else {
            reply = event.reply;
          }
        }
      } catch (error) {
        abort.abort();
        await Promise.allSettled(tasks);
        throw new PipelineError("llm", error);
      }
      llmTotalMs = now() - llmStart;
      takeSentences(buffer, true).sentences.forEach(enqueue);
      if (!reply) throw new PipelineError("llm", new Error("The language model returned no reply"));
      if (segments === 0) enqueue(reply.text);
      await Promise.all(tasks);
    }

    const audio = concatAudio(parts, tts.contentType);
    return {
      reply,
      audio,
      contentType: tts.contentType,
      durationMs: audioDurationMs(audio, tts.contentType),
      segments,
      mode,
      timings: { llmFirstTokenMs, llmTotalMs, ttsFirstByteMs, ttsTotalMs, firstAudioByteMs, pipelineMs: now() - t0 },
    };
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
