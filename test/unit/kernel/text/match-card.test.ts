/** The `match_card` doc value: a home's texts as written, read back exactly, and nothing from a card that is not one. */
import fc from 'fast-check';
import { runs } from '../../../support/property-runs';
import { decodeMatchCard, encodeMatchCard, TEXT_FIELDS, type HomeText } from '../../../../services/kernel/text/home-texts';

describe('match_card', () => {
  it('reads back every text with its field, in order, whatever the text holds', () => {
    const text = fc.record({ field: fc.constantFrom(...TEXT_FIELDS), text: fc.string({ unit: 'binary', maxLength: 60 }) });
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), (texts: HomeText[]) => {
        expect(decodeMatchCard(encodeMatchCard(texts))).toEqual(texts);
      }),
      { numRuns: runs(200) },
    );
  });

  it('holds no text when the card is not valid base64 JSON of field and text pairs', () => {
    for (const card of ['', '!!!', Buffer.from('{"a":1}').toString('base64'), Buffer.from('[99,"x","title"]').toString('base64')]) {
      expect(decodeMatchCard(card)).toEqual([]);
    }
  });
});
