/**
 * Reading an answer's `matched` for a screen (the search page's cards and the card widget): a
 * fragment's text (matched.ts: the matched words in <mark></mark>, the rest HTML-escaped) read back
 * into runs of plain text, each marked or not, so that a page builds text nodes and <mark> elements
 * from it and never parses the server's text as HTML; and each field's name in words. Pure, no DOM,
 * and importing nothing: the browser bundles take it whole (the fields are home-texts.ts's TEXT_FIELDS,
 * which its unit test holds equal).
 */

/** A run of a fragment's text, as it reads (entities decoded), and whether it is marked. */
export interface FragmentRun {
  text: string;
  marked: boolean;
}

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

/** The five entities the fragment escapes, read back; anything else is left as written. */
const decoded = (html: string): string => html.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e] ?? e);

/**
 * The runs of a fragment, in order, empty runs left out. Only `<mark>` and `</mark>` are read as
 * tags; any other `<…>` stays text. An unclosed mark runs to the end; a stray `</mark>` is dropped.
 */
export function fragmentRuns(html: string): FragmentRun[] {
  const runs: FragmentRun[] = [];
  let marked = false;
  for (const piece of html.split(/(<\/?mark>)/)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece !== '') {
      const text = decoded(piece);
      const last = runs[runs.length - 1];
      if (last && last.marked === marked) last.text += text;
      else runs.push({ text, marked });
    }
  }
  return runs;
}

/** Each field of `matched` in words, in TEXT_FIELDS order. */
export const FIELD_NAMES: Readonly<Record<string, string>> = {
  building_name: 'Building',
  title: 'Title',
  neighborhood: 'Neighborhood',
  city: 'City',
  market: 'Market',
  address: 'Address',
  amenities: 'Amenities',
  building_amenities: 'Building amenities',
  pets: 'Pets',
  description: 'Description',
};

/** A `matched` field in words ("building_amenities" -> "Building amenities"); a field not listed is spelled from its name. */
export function matchedFieldName(field: string): string {
  if (Object.hasOwn(FIELD_NAMES, field)) return FIELD_NAMES[field];
  const words = field.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
