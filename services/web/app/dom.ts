/** A small element builder and the page's formats. */

type Child = Node | string | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(child);
  return el;
}

/** A labelled control of a form. */
export const field = (label: string, id: string, ...controls: HTMLElement[]): HTMLElement =>
  h('div', { class: 'field' }, h('label', { for: id }, label), ...controls);

export const money = (n: number): string => `$${Math.round(n).toLocaleString('en-US')}`;

/** "$2.6k" on a pin: short enough to sit on the map. */
export const shortMoney = (n: number): string => (n >= 1000 ? `$${(n / 1000).toFixed(1)}k` : `$${Math.round(n)}`);

export const bedroomsLabel = (n: number): string => (n === 0 ? 'Studio' : `${n} bedroom${n > 1 ? 's' : ''}`);

export const topicLabel = (topic: string): string => topic.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** The content of the page's `<meta name>`: settings and file names the service writes into the HTML. */
export function meta(name: string): string {
  return document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content ?? '';
}
