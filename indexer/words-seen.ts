/**
 * The words of a run's documents, for the vocabulary (services/kernel/text/vocabulary.ts): each
 * thread that builds documents notes the `any` words of each, and hands over the words it had not seen
 * before with each batch. Texts repeat across homes (a building's texts in each unit, amenities in
 * many homes), so a text already seen is not split again.
 */
import type { HomeDocument } from '../services/kernel/store/home-document';

export class WordsSeen {
  private readonly texts = new Set<string>();
  private readonly words = new Set<string>();
  private fresh: string[] = [];

  /** Notes the words of a document. */
  add(doc: Pick<HomeDocument, 'text'>): void {
    for (const text of doc.text.any?.words ?? []) {
      if (this.texts.has(text)) continue;
      this.texts.add(text);
      for (const w of text.split(' ')) {
        if (w === '' || this.words.has(w)) continue;
        this.words.add(w);
        this.fresh.push(w);
      }
    }
  }

  /** The words first seen since the last call. */
  take(): string[] {
    const out = this.fresh;
    this.fresh = [];
    return out;
  }
}
