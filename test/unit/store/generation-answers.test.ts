/** Answers kept per index generation (services/kernel/store/generation-answers.ts), with a generation the test moves. */
import { GenerationAnswers } from '../../../services/kernel/store/generation-answers';
import { formOf, stringBytes } from '../../../services/kernel/store/answer-forms';
import type { IndexGeneration } from '../../../services/kernel/store/index-generation';

function world(maxBytes = 1_000_000) {
  let generation: IndexGeneration | null = { n: 1, applying: false };
  let computed = 0;
  const answers = new GenerationAnswers<{ value: string }>({ read: async () => generation }, { maxBytes, sizeOf: (a) => a.value.length });
  const compute = (value: string) => async () => {
    computed += 1;
    await new Promise((r) => setImmediate(r));
    return { value };
  };
  return {
    answers,
    compute,
    computed: () => computed,
    move: (g: IndexGeneration | null) => {
      generation = g;
    },
  };
}

describe('answers kept per index generation', () => {
  it('computes a question once while the generation stays the same', async () => {
    const w = world();
    expect(await w.answers.answer('q', w.compute('a'))).toEqual({ value: 'a' });
    expect(await w.answers.answer('q', w.compute('b'))).toEqual({ value: 'a' });
    expect(w.computed()).toBe(1);
  });

  it('computes again once the generation moves, and never serves what was kept before', async () => {
    const w = world();
    await w.answers.answer('q', w.compute('old'));
    w.move({ n: 2, applying: false });
    expect(await w.answers.answer('q', w.compute('new'))).toEqual({ value: 'new' });
    expect(w.answers.size).toBe(1);
  });

  it('keeps nothing while a run is applying its writes or the generation cannot be read', async () => {
    const w = world();
    for (const g of [{ n: 2, applying: true }, null]) {
      w.move(g);
      await w.answers.answer('q', w.compute('x'));
      await w.answers.answer('q', w.compute('x'));
    }
    expect(w.computed()).toBe(4);
    expect(w.answers.size).toBe(0);
  });

  it('shares one computation among questions asked together', async () => {
    const w = world();
    const all = await Promise.all([1, 2, 3, 4].map(() => w.answers.answer('q', w.compute('a'))));
    expect(all.every((a) => a === all[0])).toBe(true);
    expect(w.computed()).toBe(1);
  });

  it('computes again for each request that joined a computation that failed', async () => {
    const w = world();
    const failing = w.answers.answer('q', async () => {
      await new Promise((r) => setImmediate(r));
      throw new Error('deadline');
    });
    const joined = w.answers.answer('q', w.compute('mine'));
    await expect(failing).rejects.toThrow('deadline');
    expect(await joined).toEqual({ value: 'mine' });
  });

  it('freezes what it keeps, so no reader can change what the next is served', async () => {
    const w = world();
    const a = (await w.answers.answer('q', async () => ({ value: 'a', nested: { list: [1] } }))) as unknown as { nested: { list: number[] } };
    expect(Object.isFrozen(a.nested.list)).toBe(true);
    expect(() => a.nested.list.push(2)).toThrow(TypeError);
  });

  /** What one kept answer of `value` under a one-letter key counts. */
  async function entryBytes(value: string): Promise<number> {
    const w = world();
    await w.answers.answer('k', w.compute(value));
    return w.answers.bytes;
  }

  it('keeps no more bytes than it is given, the least recently used leaving first', async () => {
    const w = world(2 * (await entryBytes('12345')) + 1);
    await w.answers.answer('a', w.compute('12345'));
    await w.answers.answer('b', w.compute('12345'));
    await w.answers.answer('a', w.compute('x')); // a is used again
    await w.answers.answer('c', w.compute('12345'));
    expect(w.answers.size).toBe(2);
    const before = w.computed();
    expect(await w.answers.answer('a', w.compute('x'))).toEqual({ value: '12345' });
    expect(await w.answers.answer('b', w.compute('b2'))).toEqual({ value: 'b2' });
    expect(w.computed()).toBe(before + 1);
  });

  it('keeps nothing with no bytes to keep', async () => {
    const w = world(0);
    await w.answers.answer('q', w.compute('a'));
    await w.answers.answer('q', w.compute('a'));
    expect(w.computed()).toBe(2);
  });

  it("counts each kept answer's key, its object and every form a transport keeps beside it, each form once", async () => {
    const w = world();
    const answer = await w.answers.answer('a question', w.compute('12345'));
    const kept = w.answers.bytes;
    // The key is counted (twice its length and more), and the object (sizeOf: 5).
    expect(kept).toBeGreaterThanOrEqual(2 * 'a question'.length + 5);
    let made = 0;
    const json = () => formOf(answer, 'json', () => (made++, 'x'.repeat(10_000)), stringBytes);
    json();
    expect(w.answers.bytes).toBe(kept + stringBytes('x'.repeat(10_000)));
    json();
    expect(made).toBe(1);
    expect(w.answers.bytes).toBe(kept + stringBytes('x'.repeat(10_000)));
  });

  it('lets the least recently used answers go when a form makes the kept ones hold more than the bound', async () => {
    const entry = await entryBytes('1');
    const w = world(3 * entry + 5_000);
    const a = await w.answers.answer('a', w.compute('1'));
    await w.answers.answer('b', w.compute('1'));
    await w.answers.answer('c', w.compute('1'));
    expect(w.answers.size).toBe(3);
    // A form of `a` larger than what is left: `b`, the least recently used, leaves; `a` (just served) stays.
    formOf(
      a,
      'bytes',
      () => Buffer.alloc(5_000 + entry),
      (b) => b.length,
    );
    expect(w.answers.size).toBe(2);
    expect(w.answers.bytes).toBeLessThanOrEqual(3 * entry + 5_000);
    const before = w.computed();
    await w.answers.answer('a', w.compute('x'));
    expect(w.computed()).toBe(before);
    await w.answers.answer('b', w.compute('x'));
    expect(w.computed()).toBe(before + 1);
  });

  it('counts a form made asynchronously once it is made, and makes again one that failed', async () => {
    const w = world();
    const answer = await w.answers.answer('q', w.compute('1'));
    const kept = w.answers.bytes;
    await expect(
      formOf(
        answer,
        'br',
        () => Promise.reject(new Error('no memory')),
        (b: Buffer) => b.length,
      ),
    ).rejects.toThrow('no memory');
    expect(w.answers.bytes).toBe(kept);
    const made = formOf(
      answer,
      'br',
      () => Promise.resolve(Buffer.alloc(700)),
      (b) => b.length,
    );
    expect(await made).toHaveLength(700);
    expect(w.answers.bytes).toBe(kept + 700);
    expect(
      formOf(
        answer,
        'br',
        () => Promise.resolve(Buffer.alloc(1)),
        (b) => b.length,
      ),
    ).toBe(made);
  });

  it('keeps no form of a value that is not frozen (an answer not kept): each is made every time', () => {
    let made = 0;
    const value = { value: 'open' };
    for (let i = 0; i < 3; i++) formOf(value, 'json', () => (made++, JSON.stringify(value)), stringBytes);
    expect(made).toBe(3);
  });
});
