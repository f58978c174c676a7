import "server-only";
import os from "node:os";
import path from "node:path";
import { env } from "@/lib/env";
import { closeSharedWorkerPool, createWorkerPool, sharedWorkerPool, type WorkerPool } from "@/lib/workers/pool";

/**
 * The worker pools of the offline speech providers, started on first use, once per process.
 *
 * Two pools from one worker file (./speech-worker.mjs): synthesis answers callers while they wait,
 * transcription of a voicemail can hold a worker for many seconds, and a reply should never queue
 * behind a recording. Each has SPEECH_WORKERS threads (default: the machine's available
 * parallelism); the operating system shares the cores between them.
 *
 * The worker file is found from the project root at run time, like db/migrations, so Next's
 * bundler leaves it alone and `next start`, jest and tsx all run the same file.
 */
export function speechWorkerFile(): string {
  return path.join(/*turbopackIgnore: true*/ process.cwd(), "lib", "providers", "speech-worker.mjs");
}

export function speechWorkerCount(): number {
  return env.SPEECH_WORKERS ?? os.availableParallelism();
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
