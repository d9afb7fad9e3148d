/** The Elasticsearch client, one per process. */
import { Client } from '@elastic/elasticsearch';

export type EsClient = Client;

export function createEsClient(url: string): Client {
  return new Client({ node: url, requestTimeout: 30_000, maxRetries: 2 });
}
