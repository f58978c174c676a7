// @ts-check
/**
 * The worker side of lib/platform/workers/pool.ts: a worker file calls `serveTasks({name: handler})` once.
 * It first posts `{ready: true}`; then each message `{id, task, payload}` runs one handler (the pool
 * sends a worker one task at a time) and is answered `{id, ok: true, result}` or
 * `{id, ok: false, error: {name, message}}`.
 * A handler that returns `withTransfer(value, [arrayBuffer, …])` hands those buffers to the main
 * thread without copying them.
 *
 * Plain JavaScript on purpose: worker files run as they are, in `next start`, jest and tsx alike.
 */
import { parentPort } from "node:worker_threads";

const TRANSFER = Symbol("transfer");

/**
 * @template T
 * @param {T} value
 * @param {ArrayBuffer[]} transfer
 * @returns {T}
 */
export function withTransfer(value, transfer) {
  return /** @type {T} */ ({ [TRANSFER]: transfer, value });
}

/** @param {unknown} result */
function unwrap(result) {
  if (result && typeof result === "object" && TRANSFER in result) {
    const wrapped = /** @type {{ [TRANSFER]: ArrayBuffer[]; value: unknown }} */ (result);
    return { value: wrapped.value, transfer: wrapped[TRANSFER] };
  }
  return { value: result, transfer: [] };
}

/** @param {Record<string, (payload: any) => unknown>} handlers */
export function serveTasks(handlers) {
  const port = parentPort;
  if (!port) throw new Error("serveTasks() runs inside a worker thread");
  port.on("message", async (/** @type {{ id: number; task: string; payload: unknown }} */ message) => {
    const { id, task, payload } = message;
    try {
      const handler = handlers[task];
      if (!handler) throw new Error(`Unknown task "${task}"`);
      const { value, transfer } = unwrap(await handler(payload));
      port.postMessage({ id, ok: true, result: value }, transfer);
    } catch (error) {
      const e = /** @type {Error} */ (error);
      port.postMessage({ id, ok: false, error: { name: e?.name ?? "Error", message: e?.message ?? String(error) } });
    }
  });
  port.postMessage({ ready: true }); // the worker file loaded: the pool tells a crash from a broken file by this
}
