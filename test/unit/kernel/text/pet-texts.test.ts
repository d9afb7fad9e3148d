/** A home's pet policy as words a search finds (home-texts.ts): "pet friendly" must find a home the pets filter keeps, and only those. */
import { homeTexts, petTexts } from '../../../../services/kernel/text/home-texts';
import type { MarketRecord, PropertyRecord } from '../../../../services/kernel/inventory/records';
import { makeHome } from '../../../support/arbitraries';

const property = (allows: { cats: boolean; dogs: boolean }) =>
  ({
    name: 'Elm',
    address: '1 Elm St',
    city: 'Boston',
    amenities: [],
    description: '',
    allows_cats: allows.cats,
    allows_dogs: allows.dogs,
  }) as unknown as PropertyRecord;
const market = { name: 'Boston', neighborhoods: [], cities: [] } as unknown as MarketRecord;

describe('petTexts', () => {
  it('words each pet a home allows as a phrase of its own, and says nothing when it allows none', () => {
    expect(petTexts({ cats_allowed: true, dogs_allowed: true })).toEqual(['Pets allowed', 'Cats allowed', 'Dogs allowed']);
    expect(petTexts({ cats_allowed: true, dogs_allowed: false })).toEqual(['Pets allowed', 'Cats allowed']);
    expect(petTexts({ cats_allowed: false, dogs_allowed: true })).toEqual(['Pets allowed', 'Dogs allowed']);
    expect(petTexts({ cats_allowed: false, dogs_allowed: false })).toEqual([]);
  });

  it('reads the home with its building rules: a pet the building refuses is not written as allowed', () => {
    const home = makeHome({ cats_allowed: true, dogs_allowed: true });
    const pets = (allows: { cats: boolean; dogs: boolean }) =>
      homeTexts(home, property(allows), market)
        .filter((t) => t.field === 'pets')
        .map((t) => t.text);
    expect(pets({ cats: true, dogs: true })).toEqual(['Pets allowed', 'Cats allowed', 'Dogs allowed']);
    expect(pets({ cats: true, dogs: false })).toEqual(['Pets allowed', 'Cats allowed']);
    expect(pets({ cats: false, dogs: false })).toEqual([]);
  });
});
