// The Node.js flags the production server runs with (`npm start`, and the benchmarks' `next start`).
//
// --max-semi-space-size: V8's young generation (where a request's short-lived objects are born) is
// 16 MB per semi-space by default on 64-bit; under load a server fills it many times a second and
// each scavenge copies what is still alive. At 32 MB, a turn's objects have usually died before the
// next scavenge: measured under 20 concurrent voice turns, the event loop's CPU per turn fell from
// 25.6 to 22.0 ms and V8's helper threads' from 15.4 to 12.6 ms (docs/benchmarks.md), for at most
// 3 × 16 MB more memory. A NODE_OPTIONS that already sets it wins.
export const SERVER_SEMI_SPACE_MB = 32;

/** Flags for `node … next start`, leaving out any the environment's NODE_OPTIONS already sets. */
export function serverNodeFlags(nodeOptions = process.env.NODE_OPTIONS ?? "") {
  return nodeOptions.includes("--max-semi-space-size") ? [] : [`--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`];
}
