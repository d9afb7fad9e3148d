/**
 * A watch's capability: 128 random bits as base64url, shown once; only its sha256 is kept, and a
 * watch is found by that hash (a unique index), so no comparison of the token itself is ever made.
 * The webhook secret is the Standard Webhooks form: `whsec_` and 32 random bytes in base64.
 */
import { createHash, randomBytes } from 'node:crypto';

export const newToken = (): string => randomBytes(16).toString('base64url');

export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export const newWatchId = (): string => `w_${randomBytes(8).toString('hex')}`;

export const newWebhookSecret = (): string => `whsec_${randomBytes(32).toString('base64')}`;

/** The hash of an email as saved (trimmed, lower-cased): the key of its live watches. */
export const emailKey = (normalisedEmail: string): string => createHash('sha256').update(`watch-email:${normalisedEmail}`).digest('hex');
