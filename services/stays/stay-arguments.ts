/** The date arguments of the tools that read one apartment's stay (get_apartment_tool, get_quote_tool), as JSON Schema. */
import { committedNightsSchema, endDateSchema, isoDateSchema } from '../kernel/inventory/schema-pieces';

export const stayArgProperties = {
  start_date: { ...isoDateSchema, description: 'Move-in date, YYYY-MM-DD.' },
  end_date: endDateSchema,
  committed_nights: { ...committedNightsSchema, description: 'Flex tier (nights committed); required with end_date "indefinite", ignored for fixed stays.' },
} as const;
