/** How long a poll waits before it reports what never happened (a bound, not a timing goal). */
const POLL_LIMIT_MS = 30_000;
const POLL_EVERY_MS = 25;

/**
 * Resolves once `check` holds, asking again every few milliseconds; rejects naming `what` if it
 * never does within the bound. For what happens after an answer (batched records, an expiry, a
 * reconnection), instead of a fixed sleep.
 */
export async function pollUntil(
  check: () => boolean | Promise<boolean>,
  what: string,
  limitMs = POLL_LIMIT_MS,
): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`never happened within ${limitMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
  }
}
