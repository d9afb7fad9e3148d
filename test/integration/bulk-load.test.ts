/**
 * A bulk load whose source fails part-way (MongoDB gone in the middle of a full rebuild) returns
 * only once every bulk request it sent has been answered, so the caller's delete of the half-built
 * index is the last word: no late request creates the index again (the fault run found one left).
 */
import { bulkLoadPrebuilt, type PrebuiltDocument } from '../../indexer/bulk-load';
import { createEsClient, type EsClient } from '../../services/kernel/store/es-client';
import { testConfig } from '../support/fixture';

let es: EsClient;
const config = testConfig();
const index = `${config.homesIndexPrefix}-bulk-failure`;

beforeAll(async () => {
  es = createEsClient(config.esUrl);
  await es.indices.create({ index, mappings: { dynamic: 'strict', properties: { text: { type: 'text' } } } });
});

afterAll(async () => {
  await es.indices.delete({ index, ignore_unavailable: true });
  await es.close();
});

async function* failingAfter(n: number): AsyncGenerator<PrebuiltDocument> {
  for (let i = 0; i < n; i += 1) {
    yield { id: `doc-${i}`, routing: `r${i % 7}`, json: JSON.stringify({ text: `document ${i} `.repeat(40) }) };
    if (i % 50 === 0) await new Promise((r) => setImmediate(r));
  }
  throw new Error('the source is gone');
}

it('fails with the source’s error only after every bulk request it sent was answered, and a deleted index stays deleted', async () => {
  let inFlight = 0;
  let sent = 0;
  const counting = (delta: number) => (_err: unknown, meta: { meta?: { request?: { params?: { path?: string } } } } | null) => {
    if (meta?.meta?.request?.params?.path?.endsWith('/_bulk')) {
      inFlight += delta;
      if (delta > 0) sent += 1;
    }
  };
  const onRequest = counting(1);
  const onResponse = counting(-1);
  es.diagnostic.on('request', onRequest);
  es.diagnostic.on('response', onResponse);
  let inFlightAtFailure = -1;
  try {
    await bulkLoadPrebuilt(es, index, failingAfter(4_000), { flushBytes: 40_000, concurrency: 4 }).catch((err: Error) => {
      inFlightAtFailure = inFlight;
      throw err;
    });
    throw new Error('the load did not fail');
  } catch (err) {
    expect((err as Error).message).toBe('the source is gone');
  } finally {
    es.diagnostic.off('request', onRequest);
    es.diagnostic.off('response', onResponse);
  }
  expect(sent).toBeGreaterThan(4);
  expect(inFlightAtFailure).toBe(0);
  await es.indices.delete({ index });
  await new Promise((r) => setTimeout(r, 1_500));
  expect(await es.indices.exists({ index })).toBe(false);
});
