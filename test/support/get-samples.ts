import type { SampleSource } from './tool-samples';

/**
 * The GET route of each tool that has one, with sample arguments: the same calls as
 * ./tool-samples.ts makes through the tool server, for the loads that drive both transports (the
 * benchmark's mixed load, the fault run).
 */
export const GET_SAMPLES: Record<string, (s: SampleSource) => string> = {
  list_markets_tool: () => '/api/public/markets',
  get_policies_faq_tool: () => '/api/public/policies-faq',
  get_apartment_tool: (s) => `/api/public/homes/${s.slugOrUnknown()}`,
  get_flex_options_tool: (s) => `/api/public/homes/${s.slugOrUnknown()}/flex-options`,
  get_quote_tool: (s) => {
    const stay = s.stay();
    return `/api/public/homes/${s.slugOrUnknown()}/quote?check_in=${stay.start}&check_out=${stay.end}`;
  },
  get_market_filters_tool: (s) => `/api/public/market-filters?market=${s.pick([s.marketSlug(), s.citySlug()])}`,
  get_market_info: (s) => `/api/public/market-info?market=${s.marketSlug()}&home=${s.slugOrUnknown()}`,
  search_apartments_tool: (s) => {
    const stay = s.stay();
    return s.pick([
      `/api/public/search?market=${s.marketSlug()}`,
      `/api/public/search?market=${s.citySlug()}&check_in=${stay.start}&check_out=${stay.end}&sort_by=price_asc`,
    ]);
  },
};
