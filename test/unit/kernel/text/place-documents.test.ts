/** placeDocuments: the places index's documents, a pure function of the homes' places and the markets' names. */
import { placeDocuments, placeId, type HomePlaces, type MarketNames } from '../../../../services/kernel/text/place-suggestions';

const markets: MarketNames[] = [{ slug: 'boston', name: 'Boston', neighborhoods: [{ slug: 'back-bay', name: 'Back Bay' }] }];
const home = (over: Partial<HomePlaces> = {}): HomePlaces => ({
  market_slug: 'boston',
  city_slug: 'cambridge',
  city_name: 'Cambridge',
  neighborhood_slug: 'back-bay',
  property_slug: 'the-café-row',
  property_name: 'The Café  Row',
  ...over,
});

describe('placeDocuments', () => {
  it('writes each market, city, neighbourhood and building once, sorted by id, with the search arguments of the place', () => {
    const docs = placeDocuments([home(), home(), home({ property_slug: 'elm', property_name: 'Elm' })], markets);
    expect(docs.map(placeId)).toEqual([
      'building:boston:elm',
      'building:boston:the-café-row',
      'city:boston:cambridge',
      'market:boston:boston',
      'neighborhood:boston:back-bay',
    ]);
    const byId = new Map(docs.map((d) => [placeId(d), d]));
    expect(byId.get('city:boston:cambridge')?.search).toEqual({ scope: { display_city: 'cambridge' } });
    expect(byId.get('neighborhood:boston:back-bay')?.search).toEqual({ market: 'boston', neighborhood: 'back-bay' });
    expect(byId.get('building:boston:elm')?.search).toEqual({ market: 'boston', building: 'elm' });
  });

  it("searches a city whose slug is also its market's as that city alone, not as the whole market", () => {
    const docs = placeDocuments([home({ city_slug: 'boston', city_name: 'Boston' })], markets);
    const byId = new Map(docs.map((d) => [placeId(d), d]));
    expect(byId.get('market:boston:boston')?.search).toEqual({ market: 'boston' });
    expect(byId.get('city:boston:boston')?.search).toEqual({ scope: { display_city: 'boston' } });
  });

  it('completes a name folded from each of its words on, and weighs a market above a city above a neighbourhood above a building', () => {
    const docs = placeDocuments([home()], markets);
    const building = docs.find((d) => d.type === 'building')!;
    expect(building.label).toBe('The Café  Row');
    expect(building.suggest.input).toEqual(['the cafe row', 'cafe row', 'row']);
    const weight = (type: string) => docs.find((d) => d.type === type)!.suggest.weight;
    expect(weight('market')).toBeGreaterThan(weight('city'));
    expect(weight('city')).toBeGreaterThan(weight('neighborhood'));
    expect(weight('neighborhood')).toBeGreaterThan(weight('building'));
  });

  it('leaves out a home of an unknown market, a neighbourhood its market does not list, and a name with nothing to complete', () => {
    expect(placeDocuments([home({ market_slug: 'nowhere' })], markets)).toEqual([]);
    const docs = placeDocuments([home({ neighborhood_slug: null, property_name: '— · —' })], markets);
    expect(docs.map((d) => d.type).sort()).toEqual(['city', 'market']);
    expect(placeDocuments([home({ neighborhood_slug: 'unlisted' })], markets).some((d) => d.type === 'neighborhood')).toBe(false);
  });
});
