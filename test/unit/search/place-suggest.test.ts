/** The place box's request and answer (services/search/places/place-suggest.ts), without Elasticsearch. */
import { endsWordOf, readSuggestions, suggestBody } from '../../../services/search/places/place-suggest';
import type { Place } from '../../../services/kernel/text/place-suggestions';

const place = (type: Place['type'], label: string): Place => ({
  type,
  slug: label.toLowerCase().replace(/ /g, '-'),
  label,
  market: 'boston',
  search: { market: 'boston' },
});

describe('the place box', () => {
  it('asks the suggester for the same entries for every limit up to the default, fuzzy by the letters typed', () => {
    const asked = (limit: number) =>
      Object.values((suggestBody('x', limit) as { suggest: Record<string, { completion: { size: number } }> }).suggest)[0].completion.size;
    expect([1, 2, 8].map(asked)).toEqual([32, 32, 32]);
    expect(asked(20)).toBe(80);
    const body = suggestBody('Cambr', 8) as { suggest: Record<string, { prefix: string; completion: { size: number; fuzzy?: { fuzziness: number } } }> };
    const [cambr] = Object.values(body.suggest);
    expect(cambr.prefix).toBe('cambr');
    expect(cambr.completion.fuzzy?.fuzziness).toBe(1);
  });

  it('ends a word where a space was typed after it, within the typo budget of the words typed', () => {
    expect(endsWordOf(place('neighborhood', 'Brookline Village'), 'brook ')).toBe(false);
    expect(endsWordOf(place('neighborhood', 'Brook Farm'), 'brook ')).toBe(true);
    expect(endsWordOf(place('neighborhood', 'Brook Farm'), 'brok ')).toBe(false);
    expect(endsWordOf(place('city', 'Cambridge'), 'cambrige ')).toBe(true);
    expect(endsWordOf(place('neighborhood', 'Back Bay'), 'back ')).toBe(true);
    expect(endsWordOf(place('neighborhood', 'Back Bay'), 'back b ')).toBe(false);
    // From any of the first words, as the entries are written.
    expect(endsWordOf(place('building', 'The Park Row'), 'park ')).toBe(true);
  });

  it('orders places by score, then kind, then label, each once, and keeps only ended words after a space', () => {
    const options = [place('building', 'Parkside'), place('neighborhood', 'Park Row'), place('city', 'Park Row'), place('neighborhood', 'Park Row')];
    const res = { suggest: { places: [{ options: options.map((p) => ({ _score: 10, _source: p })) }] } };
    expect(readSuggestions(res, 5, 'par').map((p) => `${p.type}:${p.label}`)).toEqual(['city:Park Row', 'neighborhood:Park Row', 'building:Parkside']);
    expect(readSuggestions(res, 5, 'park ').map((p) => `${p.type}:${p.label}`)).toEqual(['city:Park Row', 'neighborhood:Park Row']);
    expect(readSuggestions(res, 1, 'par').map((p) => p.label)).toEqual(['Park Row']);
  });
});
