/**
 * The records of saved searches (watches): the watch itself (its token kept only as a hash), its
 * changes in order, the homes each watch matches now, and each email's live watches. Every read of
 * them is by `_id` or by the token's hash (a unique index), as the request path reads every store.
 */
import type { IntentConsent, IsoDate } from '../inventory/records';

/** Why a watch ended: DELETE, its last day passed, its receiver answered 410, or its search is refused now (its market is gone). */
export type WatchEndReason = 'deleted' | 'expired' | 'webhook_gone' | 'refused';

export interface WatchWebhook {
  url: string;
  /** The Standard Webhooks secret (`whsec_…`), shown once at creation and kept to sign. */
  secret: string;
}

export interface WatchRecord {
  _id: string; // watch_id, `w_` and 16 hex digits
  /** sha256 of the token (hex); the token itself is never kept. */
  token_hash: string;
  email: string;
  /** How the guest agreed to be contacted about this search (as a booking intent records it). */
  consent: IntentConsent;
  /** The search_apartments_tool arguments as given (without paging). */
  search: Record<string, unknown>;
  /** Its flat criteria as the watches' index holds them (services/watches/watch-index.ts): the index is rebuilt from these. */
  criteria?: WatchCriteriaRecord;
  webhook: WatchWebhook | null;
  created_at: Date;
  expires_on: IsoDate;
  ended_at: Date | null;
  ended_reason: WatchEndReason | null;
  /** Changes recorded so far; the next one gets this number plus one. */
  changes: number;
  /** Changes delivered to the webhook, in order (the next to send is delivered + 1). */
  delivered: number;
  /**
   * A batch of changes numbered (counted in `changes`) but perhaps not yet written, with the match
   * state it moves to: the journal that makes recording a batch exact across a crash
   * (services/watches/store.ts, appendManyChanges). Absent or null once the batch is complete.
   */
  pending?: WatchPendingBatch | null;
}

/** A watch's flat criteria: what the reverse search of a changed home asks of it. */
export interface WatchCriteriaRecord {
  watch_id: string;
  market_slug?: string;
  min_bedrooms?: number;
  max_bedrooms?: number;
  flags: string[];
  /** The indexed price its limits compare: `reference`, or a fixed stay's price cell key; absent when the index bounds none. */
  price_cell?: string;
  price_min?: number;
  price_max?: number;
  expires_on: IsoDate;
}

/**
 * The journal of one batch of a watch's changes, numbered `changes - count + 1` onwards: its changes are
 * written before it (services/watches/store.ts), so it keeps only how many and the match state to reach.
 */
export interface WatchPendingBatch {
  at: Date;
  /** How many changes the batch numbered. */
  count?: number;
  /** The batch's changes themselves, in a journal written by an earlier build (they are written when it completes). */
  changes?: Array<Omit<WatchChangeRecord, '_id' | 'watch_id' | 'seq' | 'at'>>;
  /** The homes the watch matches after the batch, with the price and slug to keep. */
  hold: Array<{ home_id: string; price: number; slug: string }>;
  /** The homes it no longer matches. */
  release: string[];
}

export type WatchChangeKind = 'entered' | 'price_dropped' | 'left';

export interface WatchChangeRecord {
  _id: string; // change_id: `${watch_id}.${seq}`, one id forever
  watch_id: string;
  seq: number;
  kind: WatchChangeKind;
  home_slug: string;
  at: Date;
  /** The all-in price the search shows for the stay; null for a home that left. */
  price: number | null;
  /** The home's card as the search shows it (entered, price_dropped). */
  card: Record<string, unknown> | null;
}

/**
 * A change as an earlier build kept it, one record each: its card by the id of a card record
 * (`watch_cards`), or inline in the oldest.
 */
export type StoredWatchChangeRecord = Omit<WatchChangeRecord, 'card'> & {
  card_id?: string | null;
  card?: Record<string, unknown> | null;
};

/** A change inside a run: its number is the run's first plus its place; its card by the id of a card record. */
export interface StoredRunChange {
  kind: WatchChangeKind;
  home_slug: string;
  price: number | null;
  card_id: string | null;
}

/**
 * A watch's consecutive changes of one batch, as MongoDB keeps them (services/watches/store.ts): one
 * record under the id of its first change, never across a block of CHANGE_BLOCK numbers.
 */
export interface StoredWatchRunRecord {
  _id: string; // the change_id of its first change
  watch_id: string;
  first: number;
  at: Date;
  changes: StoredRunChange[];
}

/** What `watch_changes` holds: runs, and the single changes an earlier build wrote. */
export type StoredWatchChangeDocument = StoredWatchRunRecord | StoredWatchChangeRecord;

/** A home's card as a search showed it, under the hash of its content (services/watches/store.ts). */
export interface WatchCardRecord {
  _id: string;
  card: Record<string, unknown>;
}

/** The watches a home matches now, with the price each saw: one record per home, so a change reads its watchers by `_id`. */
export interface WatchMatchRecord {
  _id: string; // home_id
  held: Record<string, { price: number; slug: string }>;
}

/** One email's live watches (by a hash of the email): at most so many (docs/contract.md, watch_search_tool). */
export interface WatchOwnerRecord {
  _id: string; // sha256 of the normalised email
  watch_ids: string[];
  version: number;
}

/** A watch with changes its webhook has not received yet (one record per watch; gone once it is up to date). */
export interface WatchOutboxRecord {
  _id: string; // watch_id
  /** Not before this moment (the backoff after a failure). */
  next_at: Date;
  /** Failed attempts of the change to send next, and when the first of them failed. */
  attempts: number;
  failing_since: Date | null;
}

/**
 * The journal of the batch of changes being recorded (services/watches/store.ts): one commit record
 * (`_id` "batch") naming its parts, and the parts (`batch.<n>`), each holding some of its watches' entries.
 * Only the worker holding the indexer's lease records changes, so there is one batch at a time.
 */
export interface WatchJournalRecord {
  _id: string;
  /** The batch's own id: a part of another batch (left by a batch that never committed) is not read. */
  batch: string;
  at: Date;
  /** On the commit: how many parts the batch has. */
  parts?: number;
  /** On a part: its watches' entries. */
  entries?: WatchJournalEntry[];
}

/** What a batch moves for one watch: its counter from `from` by `count`, and its match state. */
export interface WatchJournalEntry {
  watch_id: string;
  from: number;
  count: number;
  /** Whether its webhook is owed the batch (the watch had one and was live). */
  webhook: boolean;
  hold: Array<{ home_id: string; price: number; slug: string }>;
  release: string[];
}

export const WATCH_COLLECTIONS = {
  watches: 'watches',
  watchChanges: 'watch_changes',
  watchMatches: 'watch_matches',
  watchOwners: 'watch_owners',
  watchOutbox: 'watch_outbox',
  watchJournal: 'watch_journal',
  watchCards: 'watch_cards',
} as const;
