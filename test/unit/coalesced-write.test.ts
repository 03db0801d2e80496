import { createCoalescedWrite } from '../../src/util/coalesced-write.js';

/** A save whose completion the test controls, recording what state each save started with. */
function controlledSave() {
  let state = 0;
  const started: number[] = [];
  const pending: (() => void)[] = [];
  const save = () =>
    new Promise<void>((resolve) => {
      started.push(state);
      pending.push(resolve);
    });
  return {
    save,
    started,
    bump: () => (state += 1),
    finishNext: async () => {
      pending.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

describe('createCoalescedWrite', () => {
  it('runs one save per burst: callers during a save share the next one', async () => {
    const c = controlledSave();
    const write = createCoalescedWrite(c.save);
    c.bump();
    const first = write();
    c.bump();
    const second = write();
    c.bump();
    const third = write();
    expect(c.started).toEqual([1]); // the second save waits for the first
    await c.finishNext();
    await first;
    expect(c.started).toEqual([1, 3]); // one more save, holding both later changes
    await c.finishNext();
    await Promise.all([second, third]);
    expect(c.started).toHaveLength(2);
  });

  it('resolves a caller only after a save that started after its call', async () => {
    const c = controlledSave();
    const write = createCoalescedWrite(c.save);
    const first = write();
    c.bump();
    let secondDone = false;
    const second = write().then(() => (secondDone = true));
    await c.finishNext(); // the save that started before the second call ends
    await first;
    expect(secondDone).toBe(false);
    await c.finishNext();
    await second;
    expect(secondDone).toBe(true);
    expect(c.started).toEqual([0, 1]);
  });

  it('fails only the callers of the save that failed', async () => {
    let calls = 0;
    const write = createCoalescedWrite(async () => {
      calls += 1;
      await Promise.resolve();
      if (calls === 1) throw new Error('disk full');
    });
    const failing = write();
    const next = write();
    await expect(failing).rejects.toThrow('disk full');
    await expect(next).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });
});
