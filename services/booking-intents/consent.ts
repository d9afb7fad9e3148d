/**
 * What a booking intent records of the guest's agreement, per call: the words they were shown (or the
 * statement the agent had to relay), a version of that wording, how it came and through which door.
 */
import { createHash } from 'node:crypto';
import type { IntentConsent } from '../kernel/inventory/records';

/** A short, stable name of a wording's fixed text: the same text gives the same version, any edit a new one. */
export function wordingVersion(...fixedText: string[]): string {
  return createHash('sha256').update(fixedText.join('\n')).digest('hex').slice(0, 12);
}

/** The consent of a call the guest confirmed through the client's form (the exact message shown). */
export interface ConfirmedWording {
  wording: string;
  version: string;
}

export function consentOf(transport: IntentConsent['transport'], confirmed: ConfirmedWording | undefined, statement: string): IntentConsent {
  return confirmed
    ? { wording: confirmed.wording, wording_version: confirmed.version, via: 'elicitation', transport }
    : { wording: statement, wording_version: wordingVersion(statement), via: 'guest_consent', transport };
}
