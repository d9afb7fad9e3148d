/**
 * A place's search arguments (GET /api/public/suggest's `search`, tool arguments) as the GET search
 * routes' query parameters: `scope.display_city` is GET's `display_city`, the rest keep their names.
 */
export type PlaceSearchArgs = Record<string, string> | { scope: { display_city: string } };

export function getParamsOf(search: PlaceSearchArgs): Record<string, string> {
  if ('scope' in search && typeof search.scope === 'object') return { display_city: search.scope.display_city };
  return search as Record<string, string>;
}
