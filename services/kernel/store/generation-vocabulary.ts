/**
 * The vocabulary of the homes alias as a request may use it (../text/vocabulary.ts): read from
 * MongoDB once per index generation, after the generation was read, so it holds every word of every
 * document search shows while that generation stands. While a run is writing (`applying`), or when the
 * generation or the vocabulary cannot be read, there is none, and the search sends Elasticsearch's own
 * fuzzy and prefix clauses: slower, and the same homes.
 */
import type { Collection } from 'mongodb';
import { Vocabulary } from '../text/vocabulary';
import type { IndexerStateRecord } from './collections';
import type { GenerationReader } from './generation-reader';
import { readVocabulary } from './vocabulary-store';

export class GenerationVocabulary {
  private kept: { n: number; vocabulary: Promise<Vocabulary | null> } | null = null;

  constructor(
    private readonly reader: Pick<GenerationReader, 'read'>,
    private readonly state: Collection<IndexerStateRecord>,
    private readonly alias: string,
  ) {}

  /** The vocabulary under the current generation, or null. */
  async current(): Promise<Vocabulary | null> {
    const at = await this.reader.read();
    if (at === null || at.applying) return null;
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
    return this.kept.vocabulary;
  }
}
