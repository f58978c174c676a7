/**
 * How free the event loop stayed while work ran: a timer ticks every `everyMs` and the longest gap
 * between two ticks is the longest the loop was blocked (plus the tick). Call the returned function
 * when the work is done: it stops the timer and gives that gap in milliseconds.
 */
export function watchEventLoop(everyMs = 5): () => number {
  let longestGap = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, everyMs);
  return () => {
    clearInterval(timer);
    return longestGap;
  };
}
