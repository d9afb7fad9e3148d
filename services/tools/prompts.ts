/**
 * Prompts the tool server offers (MCP `prompts/list`, `prompts/get`): the three journeys agents ask
 * for most, written against the registry's own tool names so a renamed tool renames them too.
 */
import { compareApartmentsTool } from './compare-apartments';
import { getApartmentTool } from './get-apartment';
import { getFlexOptionsTool } from './get-flex-options';
import { getQuoteTool } from './get-quote';
import { listMarketsTool } from './list-markets';
import { searchApartmentsTool } from './search-apartments';
import { watchSearchTool } from './watch-search';

export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
}

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The user message, from arguments already checked to be present when required. */
  text(args: Record<string, string>): string;
}

const dates = (args: Record<string, string>): string =>
  args.start_date ? ` from ${args.start_date} to ${args.end_date ?? '(ask the guest for the move-out date, or "indefinite" for Flex)'}` : '';

/** When the search finds nothing: the guest may be told when something opens. */
const OFFER_WATCH =
  ` If the search finds nothing (or nothing the guest wants), offer to watch it: with the guest's email and their agreement to be ` +
  `contacted about this search, call ${watchSearchTool.name} with the same search arguments and guest_consent true, and give the guest ` +
  'its feed_url and atom_url (and keep the token: it is shown once).';

/** Fixed dates (or none yet): one stay searched, the pick quoted for it; a flexible guest is searched by a window. */
function findOnDates(a: Record<string, string>): string {
  return (
    `Find a furnished apartment in ${a.place}${dates(a)}. Call ${listMarketsTool.name} and pass the matching city or market ` +
    `slug as market to ${searchApartmentsTool.name} with start_date and end_date. If the guest's move-in is flexible, do not guess a date: ` +
    'search the window instead, start_date (earliest move-in) and latest_start_date (latest) with nights, or end_date "indefinite" with ' +
    `committed_nights. Words the guest uses that no filter says ("coworking space", "rooftop", a building's name) go in q; each home then ` +
    'carries matched, the fields that matched. Show a few homes with display_price_with_discount and its label, then call ' +
    `${getQuoteTool.name} for the one the guest picks, same dates.` +
    OFFER_WATCH
  );
}

/** A window of move-in dates: each home's best stay in it, the pick quoted for that stay. */
function findInWindow(a: Record<string, string>): string {
  const length =
    a.end_date === 'indefinite'
      ? 'end_date "indefinite" with the committed_nights of the Flex tier the guest wants'
      : a.nights === undefined || a.nights.trim() === ''
        ? 'nights (ask the guest how long)'
        : /^\d+$/.test(a.nights.trim())
          ? `nights ${a.nights.trim()}`
          : `nights as a whole number for "${a.nights}" (about 30 a month, 7 a week)`;
  return (
    `Find a furnished apartment in ${a.place}, moving in between ${a.start_date ?? '(ask the guest)'} and ${a.latest_start_date}. Call ` +
    `${listMarketsTool.name} and pass the matching city or market slug as market to ${searchApartmentsTool.name} with start_date ` +
    `${a.start_date ?? '(the earliest move-in)'}, latest_start_date ${a.latest_start_date} and ${length}. Each home's stay is its cheapest ` +
    'move-in in that window: show a few homes with stay.start_date, stay.end_date, display_price_with_discount and its label, then call ' +
    `${getQuoteTool.name} for the one the guest picks with that home's stay dates.` +
    OFFER_WATCH
  );
}

export const PROMPTS: readonly PromptDefinition[] = [
  {
    name: 'find_a_stay',
    title: 'Find a furnished stay in a city',
    description:
      'Search one city or market for given dates, or for a window of move-in dates when the guest is flexible ' +
      '("sometime in February, for three months"), and quote the guest’s pick.',
    arguments: [
      { name: 'place', description: 'City or market, as the guest said it (for example "Austin").', required: true },
      { name: 'start_date', description: 'Move-in date, or the earliest move-in of a flexible guest, YYYY-MM-DD.', required: false },
      { name: 'latest_start_date', description: 'The latest move-in of a flexible guest, YYYY-MM-DD (at most 60 days after start_date).', required: false },
      { name: 'nights', description: 'Length of the stay in nights, for a flexible move-in (for example 90 for about three months).', required: false },
      { name: 'end_date', description: 'Move-out date, YYYY-MM-DD, or "indefinite" for Flex.', required: false },
    ],
    text: (a) => (a.latest_start_date ? findInWindow(a) : findOnDates(a)),
  },
  {
    name: 'compare_shortlist',
    title: 'Compare a shortlist',
    description: 'Compare 2 to 4 apartments side by side, then quote them for the same dates.',
    arguments: [
      { name: 'home_slugs', description: 'Two to four apartment slugs, separated by commas.', required: true },
      { name: 'start_date', description: 'Move-in date, YYYY-MM-DD.', required: false },
      { name: 'end_date', description: 'Move-out date, YYYY-MM-DD, or "indefinite" for Flex.', required: false },
    ],
    text: (a) =>
      `Compare these apartments: ${a.home_slugs}. Call ${compareApartmentsTool.name} with them as home_slugs and sum up ` +
      `price, size, amenities, ratings and availability${a.start_date ? `; then call ${getQuoteTool.name} for each${dates(a)}` : ''}. ` +
      'Name any slug listed in not_found.',
  },
  {
    name: 'flex_or_fixed',
    title: 'Flex or a fixed stay?',
    description: 'For one apartment, price a fixed stay against the Flex tiers it offers.',
    arguments: [
      { name: 'home_slug', description: 'The apartment slug.', required: true },
      { name: 'start_date', description: 'Move-in date, YYYY-MM-DD.', required: true },
      { name: 'end_date', description: 'Move-out date of the fixed stay, YYYY-MM-DD.', required: true },
    ],
    text: (a) =>
      `Help the guest choose between a fixed stay and Flex for ${a.home_slug}. Call ${getQuoteTool.name} from ${a.start_date} ` +
      `to ${a.end_date}; call ${getFlexOptionsTool.name} and quote each tier with end_date "indefinite" and its ` +
      `committed_nights from ${a.start_date}. Compare display prices and what each commits to; ${getApartmentTool.name} ` +
      'shows the calendar if a stay is not bookable.',
  },
];

/** The prompt's messages, or a sentence naming what is missing or unknown. */
export function promptMessages(prompt: PromptDefinition, args: Record<string, string>): { role: 'user'; content: { type: 'text'; text: string } }[] | string {
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length) return `Unknown argument ${unknown.join(', ')} for prompt ${prompt.name}; it takes ${[...known].join(', ')}.`;
  const missing = prompt.arguments.filter((a) => a.required && !args[a.name]?.trim()).map((a) => a.name);
  if (missing.length) return `Prompt ${prompt.name} needs ${missing.join(', ')}.`;
  return [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }];
}
