/** The circle of a point search (near_latitude, near_longitude, near_radius_miles). */

/** The radius when near_radius_miles is not given. */
export const DEFAULT_RADIUS_MILES = 5;

/** The largest radius an argument may ask for, and a relaxed building search may widen to. */
export const MAX_RADIUS_MILES = 100;
