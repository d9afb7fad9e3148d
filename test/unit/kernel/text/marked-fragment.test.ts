/** A `matched` fragment read back into runs for a screen (services/kernel/text/marked-fragment.ts): only <mark> is a tag. */
import fc from 'fast-check';
import { matchedFragment } from '../../../../services/kernel/text/matched';
import { TEXT_FIELDS } from '../../../../services/kernel/text/home-texts';
import { FIELD_NAMES, fragmentRuns, matchedFieldName } from '../../../../services/kernel/text/marked-fragment';
import { queryPlan } from '../../../../services/kernel/text/query-plan';
import { runs } from '../../../support/property-runs';

describe('fragmentRuns', () => {
  it('reads marked and plain runs in order, with the escaped characters read back', () => {
    expect(fragmentRuns('Shared <mark>Coworking</mark> space')).toEqual([
      { text: 'Shared ', marked: false },
      { text: 'Coworking', marked: true },
      { text: ' space', marked: false },
    ]);
    expect(fragmentRuns('Tom &amp; Jerry&#39;s &lt;b&gt; &quot;<mark>pool</mark>&quot;')).toEqual([
      { text: 'Tom & Jerry\'s <b> "', marked: false },
      { text: 'pool', marked: true },
      { text: '"', marked: false },
    ]);
  });

  it('keeps any other tag as text, runs an unclosed mark to the end and drops a stray close', () => {
    expect(fragmentRuns('<img src=x onerror=alert(1)><mark>Gym')).toEqual([
      { text: '<img src=x onerror=alert(1)>', marked: false },
      { text: 'Gym', marked: true },
    ]);
    expect(fragmentRuns('a</mark>b<mark></mark>c &nbsp;')).toEqual([{ text: 'abc &nbsp;', marked: false }]);
    expect(fragmentRuns('')).toEqual([]);
  });

  it('gives back the text of any fragment matchedFragment writes, its marks on the matched words', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.constantFrom('pool', 'gym', 'a', 'rooftop'), (text, q) => {
        const html = matchedFragment(`${text} pool gym rooftop <&>"'`, queryPlan(q));
        if (html === null) return;
        const read = fragmentRuns(html);
        expect(read.map((r) => r.text).join('')).toBe(
          html
            .replace(/<\/?mark>/g, '')
            .replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[e]!),
        );
        expect(read.some((r) => r.marked)).toBe(true);
      }),
      { numRuns: runs(200) },
    );
  });
});

describe('matchedFieldName', () => {
  it('names each field of matched in words, and spells an unknown one from its name', () => {
    expect(Object.keys(FIELD_NAMES)).toEqual([...TEXT_FIELDS]);
    expect(matchedFieldName('building_amenities')).toBe('Building amenities');
    expect(matchedFieldName('building_name')).toBe('Building');
    expect(matchedFieldName('amenities')).toBe('Amenities');
    expect(matchedFieldName('floor_plan')).toBe('Floor plan');
    expect(matchedFieldName('constructor')).toBe('Constructor');
  });
});
