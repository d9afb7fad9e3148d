/**
 * The mapping version a build of the service reads and the indexer writes (docs/decisions.md,
 * "Versioned aliases"): a hash of the homes mapping, of the card's layout and of how documents are
 * routed and keyed. Each version has an alias of its own, `<homes alias>-v<version>`, so copies of two
 * builds read two indexes side by side during a rolling deploy; the unversioned alias follows the index
 * of the last ordinary full rebuild, for operators and older copies.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { placesAliasOf, type Config } from '../config';
import { CARD_LAYOUT } from './home-card';
import { TEXT_FIELDS } from '../text/home-texts';

/** How documents are routed (home-routing.ts): an index routed another way is rebuilt. */
const ROUTING_SCHEME = 'market routing keys';
/**
 * How minimum stays become keys (minimum-keys.ts): covers from one night up. The records' schema
 * already forbids a minimum under one night, so an older index holds the same keys; the version is a
 * precaution for data written around the schema (a 0-night cover would hold a key no search asks).
 */
const MINIMUM_KEYS_SCHEME = 'minimum keys from night 1';
/** The texts a home's text fields and `match_card` hold (home-texts.ts): the card names a field by its place in the list. */
const TEXTS_SCHEME = `texts ${TEXT_FIELDS.join(',')}`;

/**
 * The homes mapping of this build: the shipped mappings/homes.json, or the file HOMES_MAPPING_FILE names.
 * The variable stands for another build of the service (the rolling-deploy test runs two builds from
 * one checkout); a deployment leaves it unset.
 */
export function buildMapping<T>(shipped: T, env: NodeJS.ProcessEnv = process.env): T {
  const file = env.HOMES_MAPPING_FILE;
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as T) : shipped;
}

/** The version of an index created from `mapping` with this build's documents: 16 hex digits. */
export function mappingVersionOf(mapping: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify(mapping))
    .update(CARD_LAYOUT)
    .update(ROUTING_SCHEME)
    .update(MINIMUM_KEYS_SCHEME)
    .update(TEXTS_SCHEME)
    .digest('hex')
    .slice(0, 16);
}

/** `homes` and `0123456789abcdef` -> `homes-v0123456789abcdef`: the alias copies of that version read. */
export const versionedAlias = (alias: string, version: string): string => `${alias}-v${version}`;

/** The alias a versioned alias derives from (`homes-v0123456789abcdef` -> `homes`); any other name as it is. */
export const unversionedAlias = (name: string): string => name.replace(/-v[0-9a-f]{16}$/, '');

/** The version a versioned alias of `alias` names; null for any other name (its places alias, an index). */
export function versionOfAlias(alias: string, name: string): string | null {
  const prefix = `${alias}-v`;
  if (!name.startsWith(prefix)) return null;
  const version = name.slice(prefix.length);
  return /^[0-9a-f]{16}$/.test(version) ? version : null;
}

/**
 * The configuration a copy serves with: its version's alias (and that alias's places) in place of the
 * unversioned one, so every read of the homes index (searches, routing keys, words, readiness) is of
 * the index built for this build. The indexer keeps `homesAlias` as the name every version's alias derives from.
 */
export function readingVersion(config: Config, version: string): Config {
  const alias = versionedAlias(config.homesAlias, version);
  return { ...config, homesAlias: alias, placesAlias: placesAliasOf(alias) };
}
