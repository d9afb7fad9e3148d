/** The pure hot paths in one process, no I/O: generation, the document builder, the stay engine. */
import { checkStay } from '../../services/kernel/engine/stay-check';
import { priceStay } from '../../services/kernel/engine/pricing';
import { addDays } from '../../services/kernel/engine/dates';
import { toHomeDocument } from '../../indexer/document';
import { generateInventory } from '../../stack/demo/generate';
import { DEMO_SEED } from '../../stack/demo/demo-inventory';

function timed<T>(fn: () => T): { value: T; ms: number } {
  const t = process.hrtime.bigint();
  const value = fn();
  return { value, ms: Number(process.hrtime.bigint() - t) / 1e6 };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export function pureBench(homes: number, today: string, say: (line?: string) => void): void {
  say('## Pure paths (one process, no I/O)');
  say('');
  const inv = generateInventory({ seed: DEMO_SEED, homes, today });
  const properties = new Map(inv.properties.map((p) => [p._id, p]));
  const markets = new Map(inv.markets.map((m) => [m.slug, m]));
  let count = 0;
  const gen = timed(() => {
    for (const _ of inv.homes) count += 1;
  });
  say(`- generate ${count} homes (lazy stream): ${(gen.ms / 1000).toFixed(1)} s`);
  let docs = 0;
  let peak = process.memoryUsage().rss;
  const build = timed(() => {
    for (const h of inv.homes) {
      toHomeDocument(h, properties.get(h.property_id)!, markets.get(h.market_slug)!, today);
      docs += 1;
      if (docs % 10_000 === 0) peak = Math.max(peak, process.memoryUsage().rss);
    }
  });
  say(
    `- toHomeDocument over ${docs} homes: ${(build.ms / 1000).toFixed(1)} s (${Math.round((docs / build.ms) * 1000)} docs/s, ` +
      `${((build.ms * 1000) / docs).toFixed(0)} µs/doc), peak RSS ${mb(peak)}`,
  );
  let quotes = 0;
  const quote = timed(() => {
    for (const h of inv.homes) {
      if (quotes >= 20_000) break;
      const stay = { kind: 'fixed' as const, start_date: today, end_date: addDays(today, 45) };
      checkStay(h, stay, { cats: 0, dogs: 0 }, today);
      priceStay(h, stay, { cats: 0, dogs: 0 });
      quotes += 1;
    }
  });
  say(`- checkStay + priceStay (45 nights): ${((quote.ms * 1000) / quotes).toFixed(0)} µs per stay over ${quotes} homes`);
  say('');
}
