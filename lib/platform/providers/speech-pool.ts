import "server-only";
import os from "node:os";
import path from "node:path";
import { closeSharedWorkerPool, createWorkerPool, sharedWorkerPool, type WorkerPool } from "@/lib/platform/workers/pool";

/**
 * The worker pools of the offline speech providers, started on first use, once per process.
 *
 * Two pools from one worker file (./speech-worker.mjs): synthesis answers callers while they wait,
 * transcription of a voicemail can hold a worker for many seconds, and a reply should never queue
 * behind a recording. Each has `workers` threads (SPEECH_WORKERS, handed over by
 * `configureSpeechPools()` when the server starts; default: the machine's available parallelism);
 * the operating system shares the cores between them.
 *
 * The worker file is found from the project root at run time, like db/migrations, so Next's
 * bundler leaves it alone and `next start`, jest and tsx all run the same file. The settings and
 * the pools live on globalThis: Next loads this module once per route bundle.
 */
export function speechWorkerFile(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "platform", "providers", "speech-worker.mjs");
}

type SpeechPoolSettings = { workers?: number };
const SETTINGS = Symbol.for("switchboard.speechPoolSettings");
const holder = globalThis as typeof globalThis & { [SETTINGS]?: SpeechPoolSettings };

/** Sets the pools' size (instrumentation.ts passes SPEECH_WORKERS); pools already running keep theirs. */
export function configureSpeechPools(settings: SpeechPoolSettings): void {
  holder[SETTINGS] = { ...settings };
}

export function speechWorkerCount(): number {
  return holder[SETTINGS]?.workers ?? os.availableParallelism();
}

const SYNTHESIS = "speech-synthesis";
const RECOGNITION = "speech-recognition";

export function synthesisPool(): WorkerPool {
  return sharedWorkerPool(SYNTHESIS, () => createWorkerPool({ name: "speech synthesis", file: speechWorkerFile(), size: speechWorkerCount() }));
}

export function recognitionPool(): WorkerPool {
  return sharedWorkerPool(RECOGNITION, () => createWorkerPool({ name: "speech recognition", file: speechWorkerFile(), size: speechWorkerCount() }));
}

/** Stops both pools (tests, shutdown); the next use starts them again. */
export async function closeSpeechPools(): Promise<void> {
  await Promise.all([closeSharedWorkerPool(SYNTHESIS), closeSharedWorkerPool(RECOGNITION)]);
}
