/**
 * Why a home matches the search's words, on its card: each field of the result's `matched`, named in
 * words, with its fragment shown as text nodes and <mark> elements. The fragment is read by
 * fragmentRuns (../../kernel/text/marked-fragment.ts): no text of the result is parsed as HTML.
 */
import { fragmentRuns, matchedFieldName } from '../../kernel/text/marked-fragment';
import { el } from './dom';
import type { SearchHome } from './results';

/** One line per matched field ("Amenities: … <mark>Coworking</mark> space"), or null when the home has none. */
export function matchedLines(matched: SearchHome['matched']): HTMLElement | null {
  if (!matched?.length) return null;
  return el(
    'div',
    { class: 'matched' },
    ...matched.map((m) =>
      el(
        'p',
        {},
        el('span', { class: 'matched-field' }, `${matchedFieldName(m.field)}:`),
        ' ',
        ...fragmentRuns(m.text).map((run) => (run.marked ? el('mark', {}, run.text) : document.createTextNode(run.text))),
      ),
    ),
  );
}
