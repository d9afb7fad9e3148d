/** The map's status line (what a click chose, or what a move is doing) and the list shown when the map is off. */
import { el, onActivate } from './dom';
import type { WidgetHost } from './host';
import { reserveLink } from './reserve-link';
import { clusterPrice, formatPrice, homeFacts, type MapCluster, type SearchHome } from './results';

const box = (...children: Array<Node | string>): HTMLElement => el('div', { class: 'detail status', role: 'status', 'data-testid': 'selection' }, ...children);

export function clusterDetail(c: MapCluster): HTMLElement {
  return box(el('strong', {}, `${c.count} apartments here`), ` ${clusterPrice(c)}`.trimEnd());
}

/** The chosen home with its reservation link, or the hint of what a click does. */
export function detail(home: SearchHome | null, host: Pick<WidgetHost, 'openLink'>, clustered = false): HTMLElement {
  if (!home) return box(clustered ? 'Click a cluster to see how many apartments it holds and their lowest price.' : 'Click a pin to ask about that apartment.');
  return box(
    el('strong', {}, home.name),
    ` · ${home.slug} `,
    reserveLink(home, host),
    el('br'),
    `${homeFacts(home)} · ${formatPrice(home)} ${home.display_price_label}`,
  );
}

export const notice = (text: string): HTMLElement => box(text);

export function homeList(homes: SearchHome[], status: { show(home: SearchHome): void }): HTMLElement {
  return el(
    'ul',
    { class: 'home-list' },
    ...homes.map((home) => {
      const item = el(
        'li',
        { role: 'button', tabindex: '0', 'data-slug': home.slug },
        el('strong', {}, home.name),
        ` · ${homeFacts(home)} · ${formatPrice(home)}`,
      );
      onActivate(item, () => status.show(home));
      return item;
    }),
  );
}
