/**
 * Where the indexer keeps the vocabulary of a homes alias (../text/vocabulary.ts) and the service
 * reads it: one record in `indexer_state`, the words sorted and joined by newlines. The indexer is
 * the only writer (it holds the lease) and writes words before the documents that hold them are
 * searched: a run adds the words it wrote before its last generation move; a full rebuild writes the
 * old and new words together before its alias swap, and only the new ones after the old index is gone.
 *
 * A vocabulary over MAX_VOCABULARY_BYTES is not kept (MongoDB's 16 MB record, and a service copy's
 * memory): the record then says so, and the service sends Elasticsearch's fuzzy and prefix clauses.
 */
import type { Collection } from 'mongodb';
import type { IndexerStateRecord } from './collections';

export const MAX_VOCABULARY_BYTES = 8 * 1024 * 1024;

const recordId = (alias: string): string => `vocabulary:${alias}`;

interface VocabularyRecord {
  _id: string;
  /** The words, sorted, joined by "\n"; absent when the vocabulary outgrew MAX_VOCABULARY_BYTES. */
  words?: string;
  overflow?: boolean;
  updated_at: Date;
}

const typed = (state: Collection<IndexerStateRecord>) => state as unknown as Collection<VocabularyRecord>;

/** The alias's words as kept; null when none are kept (never written, or too many). */
export async function readVocabulary(state: Collection<IndexerStateRecord>, alias: string): Promise<string[] | null> {
  const doc = await typed(state).findOne({ _id: recordId(alias) });
  if (typeof doc?.words !== 'string') return null;
  return doc.words === '' ? [] : doc.words.split('\n');
}

/** Keeps exactly these words for the alias (or the overflow mark). */
export async function writeVocabulary(state: Collection<IndexerStateRecord>, alias: string, words: Iterable<string>, now = new Date()): Promise<void> {
  const joined = [...new Set(words)]
    .filter((w) => w !== '')
    .sort()
    .join('\n');
  const record: Omit<VocabularyRecord, '_id'> =
    Buffer.byteLength(joined) > MAX_VOCABULARY_BYTES ? { overflow: true, updated_at: now } : { words: joined, updated_at: now };
  await typed(state).replaceOne({ _id: recordId(alias) }, record, { upsert: true });
}

/**
 * Adds words to the alias's vocabulary. With none kept yet (a copy from before vocabularies, or one that
 * overflowed) nothing is written: a vocabulary must hold every word of the index, and only a full rebuild
 * reads them all.
 */
export async function extendVocabulary(state: Collection<IndexerStateRecord>, alias: string, words: ReadonlySet<string>, now = new Date()): Promise<void> {
  if (words.size === 0) return;
  const kept = await readVocabulary(state, alias);
  if (kept === null) return;
  const known = new Set(kept);
  if ([...words].every((w) => known.has(w))) return;
  await writeVocabulary(state, alias, [...kept, ...words], now);
}

/** Forgets the alias's words (its index retired: no copy reads them any more). */
export async function forgetVocabulary(state: Collection<IndexerStateRecord>, alias: string): Promise<void> {
  await typed(state).deleteOne({ _id: recordId(alias) });
}
