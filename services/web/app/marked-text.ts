/**
 * Why a result matches a word search: each field of the answer's `matched`, named in words, with its
 * fragment shown as text nodes and <mark> elements. The fragment is read by fragmentRuns
 * (../../kernel/text/marked-fragment.ts), so no text from the server is ever parsed as HTML.
 */
import { fragmentRuns, matchedFieldName } from '../../kernel/text/marked-fragment';
import type { SearchHome } from './api';
import { h } from './dom';

/** A fragment as nodes: its marked words in <mark>, the rest as text. */
export function markedText(fragment: string): Node[] {
  return fragmentRuns(fragment).map((run) => (run.marked ? h('mark', {}, run.text) : document.createTextNode(run.text)));
}

/** The list of a card's matched fields ("Amenities: … <mark>Coworking</mark> space"), or null without any. */
export function matchedList(matched: SearchHome['matched']): HTMLElement | null {
  if (!matched?.length) return null;
  return h(
    'ul',
    { class: 'matched' },
    ...matched.map((m) => h('li', {}, h('span', { class: 'matched-field' }, `${matchedFieldName(m.field)}:`), ' ', ...markedText(m.text))),
  );
}
