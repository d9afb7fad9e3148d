/** The fragment a word search shows of a field (services/kernel/text/matched.ts): marks, escaping, length, phrases. */
import fc from 'fast-check';
import { FRAGMENT_CHARS, matchedFragment } from '../../../../services/kernel/text/matched';
import { queryPlan } from '../../../../services/kernel/text/query-plan';
import { runs } from '../../../support/property-runs';

const DESCRIPTION =
  'The Harlow is a 12-story mid-rise building in Back Bay, Boston. A leafy neighborhood of brownstones. Residents enjoy ' +
  'fitness center, rooftop pool and elevator. Cats and dogs are welcome in many units. Every apartment comes fully ' +
  'furnished, with fast Wi-Fi, a stocked kitchen and linens, ready for stays from a few nights to a year or more.';

/** What a fragment shows a reader: without marks, HTML entities read back, ellipses removed. */
function visible(fragment: string): string {
  return fragment
    .replace(/<\/?mark>/g, '')
    .replace(/…/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('matchedFragment', () => {
  it('marks the matched words of a short text and shows it whole', () => {
    expect(matchedFragment('Rooftop pool', queryPlan('pools'))).toBe('Rooftop <mark>pool</mark>');
    expect(matchedFragment('Coworking room', queryPlan('coworkin'))).toBe('<mark>Coworking</mark> room');
    expect(matchedFragment('Sunny brownstone', queryPlan('brownst'))).toBe('Sunny <mark>brownstone</mark>');
    expect(matchedFragment('Sunny studio in Back Bay', queryPlan('sunny bay'))).toBe('<mark>Sunny</mark> studio in Back <mark>Bay</mark>');
  });

  it('gives null when no word of the text matches, or the plan is empty', () => {
    expect(matchedFragment('Rooftop pool', queryPlan('sauna'))).toBeNull();
    expect(matchedFragment('Rooftop pool', queryPlan(''))).toBeNull();
    expect(matchedFragment('', queryPlan('pool'))).toBeNull();
  });

  it('escapes everything that is not a mark', () => {
    const text = 'Pool & spa <script>alert("x")</script> it\'s';
    const fragment = matchedFragment(text, queryPlan('pool script'));
    expect(fragment).toBe('<mark>Pool</mark> &amp; spa &lt;<mark>script</mark>&gt;alert(&quot;x&quot;)&lt;/<mark>script</mark>&gt; it&#39;s');
    expect(fragment?.replace(/<\/?mark>/g, '')).not.toMatch(/[<>"']/);
  });

  it('cuts a long text at word boundaries around the first match, with ellipses where cut', () => {
    const fragment = matchedFragment(DESCRIPTION, queryPlan('pools'));
    expect(fragment).toBe('…enjoy fitness center, rooftop <mark>pool</mark> and elevator. Cats and dogs are welcome in many units. Every…');
    expect(visible(fragment ?? '').length).toBeLessThanOrEqual(FRAGMENT_CHARS);
    expect(matchedFragment(DESCRIPTION, queryPlan('harlow'))).toMatch(/^The <mark>Harlow<\/mark> is .*brownstones…$/);
    expect(matchedFragment(DESCRIPTION, queryPlan('linens'))).toMatch(/^…with fast .* year or more\.$/);
  });

  it('marks every word of a synonym phrase found in order, and not its words apart', () => {
    expect(matchedFragment('Washer/dryer in unit', queryPlan('w/d'))).toBe('<mark>Washer/dryer in unit</mark>');
    expect(matchedFragment('Air conditioning', queryPlan('AC'))).toBe('<mark>Air conditioning</mark>');
    expect(matchedFragment('24-hour fitness center', queryPlan('gym'))).toBe('24-hour <mark>fitness center</mark>');
    expect(matchedFragment('Fast Wi-Fi', queryPlan('wifi'))).toBe('Fast <mark>Wi-Fi</mark>');
    // "cowork" is the synonym phrase "coworking", whose group has the phrase "coworking space".
    expect(matchedFragment('Coworking space', queryPlan('cowork'))).toBe('<mark>Coworking space</mark>');
    expect(matchedFragment('Center of the fitness world', queryPlan('gym'))).toBeNull();
    expect(matchedFragment('Dryer vents and washer', queryPlan('washer dryer'))).toBeNull();
  });

  it('marks typos within budget and prefixes of the last word only', () => {
    expect(matchedFragment('Fully furnished', queryPlan('furnishd'))).toBe('Fully <mark>furnished</mark>');
    expect(matchedFragment('Dedicated workspace', queryPlan('dedicatde'))).toBe('<mark>Dedicated</mark> workspace');
    expect(matchedFragment('Sauna', queryPlan('suana'))).toBe('<mark>Sauna</mark>');
    expect(matchedFragment('Sauna', queryPlan('sxyna'))).toBeNull();
    expect(matchedFragment('Sauna', queryPlan('xauna'))).toBeNull();
    expect(matchedFragment('Package lockers', queryPlan('pack'))).toBe('<mark>Package</mark> lockers');
    expect(matchedFragment('Package lockers', queryPlan('pack lockers'))).toBe('Package <mark>lockers</mark>');
  });

  it('keeps every fragment of a long text within its length, whatever the text', () => {
    const word = fc.stringMatching(/^[a-z]{1,12}$/);
    const separator = fc.constantFrom(' ', ', ', '. ', ' & ', ' <b> ', '-', '/');
    fc.assert(
      fc.property(fc.array(fc.tuple(word, separator), { minLength: 1, maxLength: 80 }), fc.nat(), (pairs, pick) => {
        const text = pairs.map(([w, s]) => w + s).join('');
        const target = pairs[pick % pairs.length][0];
        const fragment = matchedFragment(text, queryPlan(target));
        expect(fragment).not.toBeNull();
        const shown = visible(fragment ?? '');
        expect(shown.length).toBeLessThanOrEqual(FRAGMENT_CHARS);
        expect(text).toContain(shown);
        expect(fragment?.replace(/^…|…$/g, '')).not.toContain('…');
        expect(fragment).toMatch(/<mark>/);
      }),
      { numRuns: runs(500) },
    );
  });
});
