import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from '../../../services/kernel/store/collections';
import { GenerationReader } from '../../../services/kernel/store/generation-reader';

/** A generation record whose reads end when the test says, each answering the value current when it started. */
function slowState(): { state: Collection<IndexerStateRecord>; set(n: number): void; started(): number; finishAll(): void } {
  let n = 0;
  let started = 0;
  const waiting: Array<() => void> = [];
  const state = {
    findOne: () => {
      started += 1;
      const seen = n;
      return new Promise((resolve) => waiting.push(() => resolve({ _id: 'generation', n: seen, applying: false })));
    },
  } as unknown as Collection<IndexerStateRecord>;
  return {
    state,
    set: (value) => (n = value),
    started: () => started,
    finishAll: () => waiting.splice(0).forEach((end) => end()),
  };
}

const settle = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('GenerationReader', () => {
  it('answers a read started after the call: one under way when it asks is not enough', async () => {
    const s = slowState();
    const reader = new GenerationReader(s.state);
    const first = reader.read();
    s.set(1); // a run ends while the first read is under way
    const second = reader.read();
    s.finishAll();
    expect(await first).toEqual({ n: 0, applying: false });
    await settle();
    s.finishAll();
    expect(await second).toEqual({ n: 1, applying: false });
  });

  it('shares one read among the calls that ask while another is under way', async () => {
    const s = slowState();
    const reader = new GenerationReader(s.state);
    const calls = [reader.read(), ...Array.from({ length: 15 }, () => reader.read())];
    for (let i = 0; i < 3; i++) {
      s.finishAll();
      await settle();
    }
    await Promise.all(calls);
    expect(s.started()).toBe(2);
  });

  it('answers null when the record cannot be read, so nothing kept is served', async () => {
    const state = { findOne: () => Promise.reject(new Error('store down')) } as unknown as Collection<IndexerStateRecord>;
    expect(await new GenerationReader(state).read()).toBeNull();
  });
});
