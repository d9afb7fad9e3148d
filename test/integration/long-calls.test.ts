/**
 * A call that outlasts the client's timeout (a force-merge of a large index, a wait for replicas) is
 * answered through withLongCalls, where a per-request timeout on the client itself is not: its
 * connections time out at the client's timeout whatever a request asks. Against the real
 * Elasticsearch: a health request that waits 2 s by its own `timeout`, on a client of 500 ms.
 */
import { Client, errors } from '@elastic/elasticsearch';
import { withLongCalls } from '../../indexer/long-calls';
import { testConfig } from '../support/fixture';

const WAIT = { wait_for_nodes: '>=99', timeout: '2s' } as const;

let es: Client;

beforeAll(() => {
  es = new Client({ nodes: [testConfig().esUrl], requestTimeout: 500, maxRetries: 0 });
});

afterAll(async () => {
  await es.close();
});

describe('withLongCalls', () => {
  it('answers a call longer than the client timeout, which the client cuts short even when the request asks for longer', async () => {
    await expect(es.cluster.health(WAIT, { requestTimeout: 10_000 })).rejects.toBeInstanceOf(errors.TimeoutError);
    const health = await withLongCalls(es, (long) => long.cluster.health(WAIT, { ignore: [408] }), 10_000);
    expect(health.timed_out).toBe(true);
  });
});
