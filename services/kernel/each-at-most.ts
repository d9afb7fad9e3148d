/** Runs `work` on every item, at most `limit` at a time, in the items' order of start; the first failure fails the whole. */
export async function eachAtMost<T>(limit: number, items: readonly T[], work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await work(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}
