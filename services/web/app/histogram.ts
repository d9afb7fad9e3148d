/** The price histogram above the price ceiling: one bar per bucket of the answer's facets, those past the ceiling greyed. */
import { bucketLabel, ceilingIn, histogramBars, histogramSummary, type Facets } from './facets';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 200;
const HEIGHT = 40;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

export interface Histogram {
  element: HTMLElement;
  /** Draws the buckets (none: the box stays empty and is hidden from assistive technology). */
  show(price: Facets['price'] | null, monthlyCeiling: number | null): void;
  /** Greys the bars past a new ceiling, as it is typed (no search). */
  setCeiling(monthlyCeiling: number | null): void;
}

export function priceHistogram(): Histogram {
  const element = document.createElement('div');
  element.className = 'histogram';
  element.dataset.testid = 'price-histogram';
  let price: Facets['price'] | null = null;
  const draw = (monthlyCeiling: number | null): void => {
    element.replaceChildren();
    if (!price || price.buckets.length === 0) {
      element.hidden = true;
      return;
    }
    element.hidden = false;
    const picture = svg('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, width: WIDTH, height: HEIGHT, role: 'img', 'aria-label': histogramSummary(price) });
    for (const bar of histogramBars(price.buckets, ceilingIn(price.unit, monthlyCeiling), WIDTH, HEIGHT)) {
      const rect = svg('rect', { x: bar.x, y: bar.y, width: bar.width, height: bar.height, class: bar.inside ? 'bar' : 'bar out' });
      rect.dataset.min = String(bar.bucket.min);
      rect.dataset.count = String(bar.bucket.count);
      const title = svg('title', {});
      title.textContent = bucketLabel(bar.bucket);
      rect.append(title);
      picture.append(rect);
    }
    element.append(picture);
  };
  return {
    element,
    show(next, monthlyCeiling) {
      price = next;
      draw(monthlyCeiling);
    },
    setCeiling: draw,
  };
}
