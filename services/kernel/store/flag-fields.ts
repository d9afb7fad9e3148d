/**
 * The boolean filter arguments (docs/contract.md, "Filters") and the indexed field each one requires to be
 * true: the search's clauses, the facets and the answers' schemas all read them here.
 */
/** Boolean filter argument → indexed field that must be true. */
export const FLAG_FIELDS = {
  pets: 'pets_allowed',
  cats: 'cats_allowed',
  dogs: 'dogs_allowed',
  parking: 'has_parking',
  pool: 'has_pool',
  gym: 'has_gym',
  in_unit_laundry: 'in_unit_laundry',
  air_conditioned: 'air_conditioned',
  balcony: 'has_balcony',
  elevator: 'has_elevator',
  first_floor_unit: 'first_floor_unit',
  self_check_in: 'self_check_in',
  deals_only: 'has_active_offer',
} as const satisfies Record<string, string>;

/**
 * What each boolean filter is called where people read it: the market filters' answer, the search
 * page's filters and the map widget's counts. Pure, imports nothing: the browser bundles read it too.
 */
export const FLAG_LABELS: Record<keyof typeof FLAG_FIELDS, string> = {
  pets: 'Pets allowed',
  cats: 'Cats allowed',
  dogs: 'Dogs allowed',
  parking: 'Parking',
  pool: 'Pool',
  gym: 'Fitness center',
  in_unit_laundry: 'In-unit laundry',
  air_conditioned: 'Air conditioning',
  balcony: 'Balcony',
  elevator: 'Elevator',
  first_floor_unit: 'Ground floor',
  self_check_in: 'Self check-in',
  deals_only: 'Special offers',
};
