/** The policy answers (GET policies-faq): one entry per topic. */
import type { PolicyEntry } from './api';
import { h, topicLabel } from './dom';

export function policiesView(entries: PolicyEntry[], backHref: string): HTMLElement {
  return h(
    'section',
    { class: 'policies', 'aria-labelledby': 'policies-heading' },
    h('p', {}, h('a', { href: backHref }, '← Back to results')),
    h('h2', { id: 'policies-heading' }, 'Policies'),
    h('dl', {}, ...entries.flatMap((e) => [h('dt', { id: `policy-${e.topic}` }, topicLabel(e.topic)), h('dd', {}, e.answer)])),
  );
}
