/**
 * The vocabulary of the homes alias as a request may use it (../text/vocabulary.ts): read from
 * MongoDB once per index generation, after the generation was read, so it holds every word of every
 * document search shows while that generation stands. While a run is writing (`applying`), or when the
 * generation or the vocabulary cannot be read, there is none, and the search sends Elasticsearch's own
 * fuzzy and prefix clauses: slower, and the same homes.
 *
 * `latest()` answers at once with the vocabulary of the newest generation read: a search may be sent
 * with it while `current()` reads the generation beside it, and stands when `current()` answers the
 * same vocabulary (the generation did not move); else it is asked again (../../search/shared/read-q.ts).
 */
import type { Collection } from 'mongodb';
import { Vocabulary } from '../text/vocabulary';
import type { IndexerStateRecord } from './collections';
import type { GenerationReader } from './generation-reader';
import { readVocabulary } from './vocabulary-store';

export class GenerationVocabulary {
  private kept: { n: number; vocabulary: Promise<Vocabulary | null> } | null = null;
  /** What the newest generation read found, once its vocabulary is read; undefined while a run writes, or after a failed read. */
  private settled: { vocabulary: Vocabulary | null } | undefined;

  constructor(
    private readonly reader: Pick<GenerationReader, 'read'>,
    private readonly state: Collection<IndexerStateRecord>,
    private readonly alias: string,
  ) {}

  /** The vocabulary under the current generation, or null. */
  async current(): Promise<Vocabulary | null> {
    const at = await this.reader.read();
    if (at === null || at.applying) {
      this.settled = undefined;
      return null;
    }
    if (this.kept?.n !== at.n) {
      // Newer than the kept one (a generation only grows); an older read keeps what is kept and uses none.
      if (this.kept !== null && at.n < this.kept.n) return null;
      let failed = false;
      const vocabulary = readVocabulary(this.state, this.alias).then(
        (words) => (words === null ? null : new Vocabulary(words)),
        () => {
          failed = true;
          return null;
        },
      );
      const kept = { n: at.n, vocabulary };
      this.kept = kept;
      // A failed read is not kept: the next request reads again. None kept (too many words) is kept for the generation.
      void vocabulary.then(() => {
        if (failed && this.kept === kept) this.kept = null;
      });
    }
    const kept = this.kept;
    const vocabulary = await kept.vocabulary;
    if (this.kept === kept) this.settled = { vocabulary };
    return vocabulary;
  }

  /** The vocabulary the newest generation read found, without reading (undefined: none settled, read it with current()). */
  latest(): { vocabulary: Vocabulary | null } | undefined {
    return this.settled;
  }
}
