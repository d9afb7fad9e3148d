/**
 * The link to reserve a home: its page (home_url, with the searched dates pre-filled). A sandboxed
 * widget cannot navigate, so a click asks the host to open it (WidgetHost.openLink); the href stays
 * for what the link is (and for a host without the sandbox).
 */
import { el } from './dom';
import type { WidgetHost } from './host';
import type { SearchHome } from './results';

export function reserveLink(home: SearchHome, host: Pick<WidgetHost, 'openLink'>): HTMLAnchorElement {
  const link = el(
    'a',
    {
      class: 'reserve',
      href: home.home_url,
      target: '_blank',
      rel: 'noopener',
      'data-testid': 'reserve',
      'aria-label': `Reserve ${home.name} (opens its page)`,
    },
    'Reserve ↗',
  );
  link.addEventListener('click', (event) => {
    event.preventDefault();
    host.openLink(home.home_url);
  });
  return link;
}
