/** The synonym groups file (services/kernel/text/synonyms.json) and the checks made when it is read (synonyms.ts). */
import file from '../../../../services/kernel/text/synonyms.json';
import { SYNONYMS, stemsKey, synonymIndex } from '../../../../services/kernel/text/synonyms';
import { stemOf, wordsOf } from '../../../../services/kernel/text/words';

const keyOf = (phrase: string): string => stemsKey(wordsOf(phrase).map((w) => stemOf(w.word)));
const groupOf = (phrase: string) => SYNONYMS.byStems.get(keyOf(phrase));

describe('synonyms.json', () => {
  it('is valid: groups of two phrases or more, every phrase with a word, no phrase twice', () => {
    expect(() => synonymIndex(file)).not.toThrow();
    expect(SYNONYMS.groups).toHaveLength(file.length);
    for (const group of SYNONYMS.groups) expect(group.phrases.length).toBeGreaterThanOrEqual(2);
    expect(SYNONYMS.byStems.size).toBe(file.flat().length);
  });

  it('puts the phrases a renter types for one thing in one group', () => {
    const together = [
      ['w/d', 'washer dryer', 'washer/dryer', 'in-unit laundry', 'washer/dryer in unit'],
      ['gym', 'fitness center'],
      ['ac', 'air conditioning', 'a/c'],
      ['pet friendly', 'pets allowed'],
      ['doorman', 'concierge'],
      ['parking', 'garage', 'parking garage', 'garage parking'],
      ['wifi', 'wi-fi', 'internet'],
      ['dishwasher', 'dish washer'],
      ['rooftop', 'roof deck', 'rooftop deck'],
      ['keyless entry', 'self check-in'],
      ['1br', '1 bedroom', 'one bedroom'],
    ];
    for (const phrases of together) {
      const group = groupOf(phrases[0]);
      expect(group).toBeDefined();
      for (const p of phrases) expect(groupOf(p)).toBe(group);
    }
    expect(groupOf('gym')).not.toBe(groupOf('pool'));
  });

  it('names the demo inventory amenities renters search for', () => {
    for (const amenity of [
      'Washer/dryer in unit',
      'Air conditioning',
      'Fitness center',
      'Rooftop deck',
      'Coworking space',
      'EV charging',
      'Package lockers',
      'Dedicated workspace',
      'Keyless entry',
      'Smart TV',
      'Fully equipped kitchen',
    ]) {
      expect(groupOf(amenity)).toBeDefined();
    }
  });
});

describe('synonymIndex', () => {
  it('rejects what is not an array of arrays of strings', () => {
    expect(() => synonymIndex({ gym: ['fitness'] })).toThrow(/array of groups/);
    expect(() => synonymIndex([['gym', 3]])).toThrow(/group 1 is not an array of strings/);
  });

  it('rejects a group of one phrase and a phrase without a word', () => {
    expect(() => synonymIndex([['gym']])).toThrow(/fewer than two phrases/);
    expect(() => synonymIndex([['gym', ' / ']])).toThrow(/phrase " \/ " has no word/);
  });

  it('rejects a phrase in two groups, or twice in one, compared by stems', () => {
    expect(() =>
      synonymIndex([
        ['gym', 'fitness center'],
        ['fitness centers', 'health club'],
      ]),
    ).toThrow(/"fitness centers" is "fitness center" of group 1 again/);
    expect(() => synonymIndex([['pet friendly', 'pets-friendly']])).toThrow(/of this group again/);
  });

  it('names every problem at once', () => {
    expect(() => synonymIndex([['a'], ['b', '!'], 7])).toThrow(/group 1 .*; group 2: .*; group 3/);
  });

  it('knows its longest phrase', () => {
    expect(synonymIndex([['a b c', 'd']]).longest).toBe(3);
  });
});
