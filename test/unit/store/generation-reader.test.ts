import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from '../../../services/kernel/store/collections';
import { GenerationReader } from '../../../services/kernel/store/generation-reader';

/** A generation record whose reads end when the test says, each answering the value current when it was sent. */
function slowState(): { state: Collection<IndexerStateRecord>; set(n: number): void; sent(): number; finishAll(): void } {
  let n = 0;
  let sent = 0;
  const waiting: Array<() => void> = [];
  const state = {
    findOne: () => {
      sent += 1;
      const seen = n;
      return new Promise((resolve) => waiting.push(() => resolve({ _id: 'generation', n: seen, applying: false })));
    },
  } as unknown as Collection<IndexerStateRecord>;
  return {
    state,
    set: (value) => (n = value),
    sent: () => sent,
    finishAll: () => waiting.splice(0).forEach((end) => end()),
  };
}

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('GenerationReader', () => {
  it('shares one read among the calls of one turn, sent after the last of them', async () => {
    const s = slowState();
    const reader = new GenerationReader(s.state);
    const calls = Array.from({ length: 16 }, () => reader.read());
    s.set(1); // a run ends after the calls: the shared read still sees it
    expect(s.sent()).toBe(0);
    await turn();
    s.finishAll();
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 16 }, () => ({ n: 1, applying: false })));
    expect(s.sent()).toBe(1);
  });

  it('gives a call made after a read was sent a read of its own, not that one', async () => {
    const s = slowState();
    const reader = new GenerationReader(s.state);
    const first = reader.read();
    await turn();
    s.set(1); // a run ends while the first read is under way
    const second = reader.read();
    await turn();
    s.finishAll();
    expect(await first).toEqual({ n: 0, applying: false });
    expect(await second).toEqual({ n: 1, applying: false });
    expect(s.sent()).toBe(2);
  });

  it('answers null when the record cannot be read, so nothing kept is served', async () => {
    const state = { findOne: () => Promise.reject(new Error('store down')) } as unknown as Collection<IndexerStateRecord>;
    expect(await new GenerationReader(state).read()).toBeNull();
  });
});
