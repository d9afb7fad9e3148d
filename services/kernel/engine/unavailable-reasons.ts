/**
 * The human sentences of an unavailable stay ("Quote": `unavailable_reason` is free text, always
 * present when `available` is false) and the structured reason of a date-specific calendar block.
 */
import type { IsoDate } from '../inventory/records';
import type { StayCheck, UnbookableReason } from './types';

/** A block that is not tied to calendar dates (pets, Flex tier, past dates): no `unbookable_reason`. */
export function unavailable(sentence: string): StayCheck {
  return { available: false, unavailable_reason: sentence };
}

/** A date-specific calendar block: the sentence plus the structured reason. */
export function blocked(sentence: string, reason: UnbookableReason): StayCheck {
  return { available: false, unavailable_reason: sentence, unbookable_reason: reason };
}

const CLOSED_PHRASES: Record<string, string> = {
  reserved: 'is reserved',
  owner_hold: 'is held by its owner',
  maintenance: 'is closed for maintenance',
  turnover: 'is closed for turnover between stays',
};

export function closedNightSentence(date: IsoDate, rangeReason: string | null): string {
  const phrase = (rangeReason !== null && CLOSED_PHRASES[rangeReason]) || 'is not open for occupancy';
  return `The apartment ${phrase} from ${date}; the stay cannot include that night.`;
}

export function beyondCalendarSentence(date: IsoDate): string {
  return `The apartment's calendar does not cover ${date}; the stay cannot include that night.`;
}

export function pastMustVacateSentence(mustVacateBy: IsoDate, flexCommittedNights: number | null): string {
  if (flexCommittedNights !== null) {
    return `The Flex commitment of ${flexCommittedNights} nights would run past ${mustVacateBy}, the date the apartment must be vacated.`;
  }
  return `The apartment must be vacated by ${mustVacateBy}; the stay must end on or before that date.`;
}

export function beforeAvailableFromSentence(availableFrom: IsoDate): string {
  return `The apartment is available from ${availableFrom}; the stay cannot start before that date.`;
}

export function pastStartSentence(startDate: IsoDate, today: IsoDate): string {
  return `The move-in date ${startDate} is in the past; a stay can start on ${today} at the earliest.`;
}

export function noStartSentence(start: IsoDate, earliest: IsoDate | null): string {
  return (
    `No stay that meets this apartment's rules can start on ${start}.` +
    (earliest ? ` The earliest possible move-in on or after today is ${earliest}.` : ' It has no open dates in its calendar.')
  );
}

export function moveInSentence(date: IsoDate): string {
  return `Move-in is not allowed on ${date}; choose another move-in date.`;
}

export function moveOutSentence(date: IsoDate): string {
  return `Move-out is not allowed on ${date}; choose another move-out date.`;
}

export function belowMinimumSentence(startDate: IsoDate, minimum: number, nights: number): string {
  return `A stay moving in on ${startDate} must be at least ${minimum} nights; this stay has ${nights}.`;
}

export function noNightsSentence(): string {
  return 'The move-out date must be after the move-in date.';
}

export function petsSentence(kind: 'cats' | 'dogs'): string {
  return `This apartment does not allow ${kind}.`;
}

export function flexOptOutSentence(): string {
  return 'This apartment does not accept Flex stays.';
}

export function flexTierSentence(committedNights: number, offered: number[]): string {
  const list = offered.length === 0 ? 'none' : offered.map((n) => `${n} nights`).join(', ');
  return `This apartment does not offer a Flex commitment of ${committedNights} nights; offered commitments: ${list}.`;
}
