/**
 * Real US metros of the demo inventory: markets, their display cities (some across a state
 * line, docs/contract.md, "What the service is": a city's state may differ from its market's) and neighborhoods.
 * Coordinates are the real city centres; the generator scatters buildings around them.
 */
import { CENTRAL_METROS } from './metros/central';
import { EAST_METROS } from './metros/east';
import type { MetroSeed } from './metros/types';
import { WEST_METROS } from './metros/west';

export type { CitySeed, MetroSeed, NeighborhoodSeed } from './metros/types';

export const METROS: readonly MetroSeed[] = [...EAST_METROS, ...CENTRAL_METROS, ...WEST_METROS];

/** "Upper West Side" → "upper-west-side"; "O'Hare" → "ohare". */
export function slugify(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f']/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
