/**
 * The requestState of the guest's confirmation (2026-07-28 input-required results), signed: an
 * HMAC-SHA256 (REQUEST_STATE_SECRETS: the first key signs, every key verifies, so keys rotate without
 * refusing the questions already asked) over the tool, the digest of the call's exact arguments and
 * the time it was issued. A state is good for REQUEST_STATE_MAX_AGE_MS after that; one forged,
 * altered, issued for other arguments or another tool, or stale, is refused.
 *
 * What 2026-07-28 asks of a request state that decides a write (multi round-trip requests): integrity
 * (the HMAC; a state failing it is refused), a short expiry, and the originating request (the tool,
 * which only tools/call reaches, and a digest of its arguments). There is no authenticated principal
 * to bind: the endpoint is public. Each state carries a random id and is accepted once
 * (kernel/store/used-request-states.ts): a replay, from any address and on any copy, is refused.
 *
 * Format: `v1.<base64url JSON payload>.<base64url HMAC of "v1." + payload>`.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { REQUEST_STATE_CLOCK_SKEW_MS as CLOCK_SKEW_MS, REQUEST_STATE_MAX_AGE_MS } from '../../kernel/limits/request-state';

export { REQUEST_STATE_MAX_AGE_MS };
const VERSION = 'v1';

export interface StateClaims {
  /** The tool the question was asked for. */
  tool: string;
  /** The digest of the call's arguments (guest-confirmation.ts). */
  digest: string;
}

interface Payload extends StateClaims {
  iat: number;
  /** Random: no two states are alike, so a used one is told apart from a fresh one for the same call. */
  jti?: string;
}

function mac(secret: string, signed: string): Buffer {
  return createHmac('sha256', secret).update(signed).digest();
}

export function signRequestState(claims: StateClaims, now: Date, secrets: readonly string[]): string {
  if (secrets.length === 0) throw new Error('no request-state key configured');
  const payload: Payload = { tool: claims.tool, digest: claims.digest, iat: now.getTime(), jti: randomBytes(12).toString('base64url') };
  const body = `${VERSION}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${body}.${mac(secrets[0], body).toString('base64url')}`;
}

export type StateVerdict = 'valid' | 'forged' | 'other_call' | 'expired';

/** Whether `token` is a state this service issued, for exactly these claims, less than the max age ago. */
export function verifyRequestState(
  token: unknown,
  claims: StateClaims,
  now: Date,
  secrets: readonly string[],
  maxAgeMs = REQUEST_STATE_MAX_AGE_MS,
): StateVerdict {
  if (typeof token !== 'string' || token.length > 2_000) return 'forged';
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return 'forged';
  const body = `${parts[0]}.${parts[1]}`;
  // The signature as issued, character for character: base64url decoding also accepts padding, stray
  // characters and other spellings of the same bytes, and a spelling must not make a used state new.
  const sent = Buffer.from(parts[2]);
  const signedByUs = secrets.some((secret) => {
    const expected = Buffer.from(mac(secret, body).toString('base64url'));
    return sent.length === expected.length && timingSafeEqual(sent, expected);
  });
  if (!signedByUs) return 'forged';
  const payload = readPayload(parts[1]);
  if (!payload) return 'forged';
  if (payload.tool !== claims.tool || payload.digest !== claims.digest) return 'other_call';
  const age = now.getTime() - payload.iat;
  if (age > maxAgeMs || age < -CLOCK_SKEW_MS) return 'expired';
  return 'valid';
}

function readPayload(encoded: string): Payload | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    if (typeof value !== 'object' || value === null) return null;
    const { tool, digest, iat } = value as Record<string, unknown>;
    return typeof tool === 'string' && typeof digest === 'string' && typeof iat === 'number' && Number.isFinite(iat) ? { tool, digest, iat } : null;
  } catch {
    return null;
  }
}
