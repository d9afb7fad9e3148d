/**
 * The one place an apartment search does I/O: it sends the bodies buildSearchBody made to the
 * homes alias (STYLE: Searchkit's transporter). A recorder sees each request, so the benchmark can
 * replay exactly what a search sent, straight to Elasticsearch.
 */
import type { estypes } from '@elastic/elasticsearch';
import type { EsClient } from '../kernel/store/es-client';
import type { HomeDocument } from '../kernel/store/home-document';

export type SearchResponse = estypes.SearchResponse<HomeDocument>;

export interface SearchTransport {
  search(body: estypes.SearchRequest): Promise<SearchResponse>;
}

export function esTransport(es: EsClient, index: string, record?: (body: estypes.SearchRequest) => void): SearchTransport {
  return {
    search(body) {
      record?.(body);
      return es.search<HomeDocument>({ index, ...body });
    },
  };
}

export function totalOf(res: SearchResponse): number {
  const t = res.hits.total;
  return typeof t === 'number' ? t : (t?.value ?? 0);
}
