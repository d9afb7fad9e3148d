/** A filter clause that keeps only the named homes (a watch's search, restricted to the homes that changed). */
import type { estypes } from '@elastic/elasticsearch';

export const onlyHomes = (homeIds: readonly string[]): estypes.QueryDslQueryContainer => ({ terms: { home_id: [...homeIds] } });
