/** Straight-line distance between two points, as apartment results and building cards show it. */

/** Mean Earth radius in miles (Elasticsearch's arc distance uses the same sphere, 6,371,008.7714 m). */
const EARTH_RADIUS_MILES = 6_371_008.7714 / 1_609.344;

/** Great-circle distance in miles (haversine), the straight line of "near_radius_miles". */
export function haversineMiles(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}
