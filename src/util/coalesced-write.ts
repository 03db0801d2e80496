/**
 * Coalesces saves: callers that arrive while a save runs share the next one, which starts when
 * the running one ends and so holds everything they stored. Each caller resolves only after a
 * save that started after its call: an acknowledged write is on disk.
 */
export function createCoalescedWrite(save: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  const start = (): Promise<void> => {
    const current = save().finally(() => {
      if (running === current) running = undefined;
    });
    running = current;
    return current;
  };
  return () => {
    if (queued) return queued;
    if (!running) return start();
    const next = running
      .catch(() => undefined) // a failed save must not fail the callers of the next one
      .then(() => {
        queued = undefined;
        return start();
      });
    queued = next;
    return next;
  };
}
