/**
 * The speech pools: sized by configureSpeechPools (SPEECH_WORKERS at server start) or by the
 * machine, one of each per process, both running the speech worker file.
 */
import fs from "node:fs";
import os from "node:os";
import { closeSpeechPools, configureSpeechPools, recognitionPool, speechWorkerCount, speechWorkerFile, synthesisPool } from "./speech-pool";

afterEach(async () => {
  configureSpeechPools({});
  await closeSpeechPools();
});

describe("speech pools", () => {
  it("default to the machine's available parallelism, one synthesis and one recognition pool per process", () => {
    expect(fs.existsSync(speechWorkerFile())).toBe(true);
    expect(speechWorkerCount()).toBe(os.availableParallelism());
    expect(synthesisPool().size).toBe(os.availableParallelism());
    expect(synthesisPool()).toBe(synthesisPool());
    expect(recognitionPool()).not.toBe(synthesisPool());
  });

  it("run their workers below the event loop's priority (Linux), leaving the main thread's alone", async () => {
    const before = os.getPriority();
    const info = await synthesisPool().run<{ nice: number | null }>("worker.info");
    if (process.platform !== "linux") return expect(info.nice).toBeNull();
    expect(info.nice).toBe(Math.max(before, 10));
    expect(os.getPriority()).toBe(before);
  });

  it("take the configured size (SPEECH_WORKERS) when they start", async () => {
    configureSpeechPools({ workers: 3 });
    expect(synthesisPool().size).toBe(3);
    expect(recognitionPool().size).toBe(3);
    await closeSpeechPools();
    configureSpeechPools({ workers: 1 });
    expect(synthesisPool().size).toBe(1);
  });
});
