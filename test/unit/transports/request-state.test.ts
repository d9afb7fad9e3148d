/**
 * The signed requestState of the guest's confirmation (services/transports/mcp/request-state.ts):
 * issued for one tool and one digest of arguments, verified by any configured key, refused when
 * forged, altered, issued for another call, or older than ten minutes.
 */
import { createHash } from 'node:crypto';
import { REQUEST_STATE_MAX_AGE_MS, signRequestState, verifyRequestState } from '../../../services/transports/mcp/request-state';

const OLD_KEY = 'o'.repeat(40);
const NEW_KEY = 'n'.repeat(40);
const claims = { tool: 'booking_intent_tool', digest: createHash('sha256').update('{"email":"a@example.com"}').digest('base64url') };
const t0 = new Date('2026-05-01T10:00:00Z');
const at = (ms: number) => new Date(t0.getTime() + ms);

describe('a signed request state', () => {
  it('verifies for the call it was issued for, within ten minutes', () => {
    const state = signRequestState(claims, t0, [NEW_KEY]);
    expect(verifyRequestState(state, claims, at(REQUEST_STATE_MAX_AGE_MS - 1_000), [NEW_KEY])).toBe('valid');
  });

  it('is unlike any other state, even one issued for the same call at the same instant (a used one is told apart)', () => {
    const states = new Set(Array.from({ length: 50 }, () => signRequestState(claims, t0, [NEW_KEY])));
    expect(states.size).toBe(50);
  });

  it('is refused as stale after ten minutes, and when issued far in the future', () => {
    const state = signRequestState(claims, t0, [NEW_KEY]);
    expect(verifyRequestState(state, claims, at(REQUEST_STATE_MAX_AGE_MS + 1_000), [NEW_KEY])).toBe('expired');
    expect(verifyRequestState(signRequestState(claims, at(5 * 60_000), [NEW_KEY]), claims, t0, [NEW_KEY])).toBe('expired');
  });

  it('is refused for other arguments or another tool', () => {
    const state = signRequestState(claims, t0, [NEW_KEY]);
    expect(verifyRequestState(state, { ...claims, digest: 'other' }, t0, [NEW_KEY])).toBe('other_call');
    expect(verifyRequestState(state, { ...claims, tool: 'another_tool' }, t0, [NEW_KEY])).toBe('other_call');
  });

  it('is refused when forged: the bare digest, an unknown key, an altered payload or signature, junk', () => {
    expect(verifyRequestState(claims.digest, claims, t0, [NEW_KEY])).toBe('forged');
    expect(verifyRequestState(signRequestState(claims, t0, ['x'.repeat(40)]), claims, t0, [NEW_KEY])).toBe('forged');
    const [v, payload, sig] = signRequestState(claims, t0, [NEW_KEY]).split('.');
    const altered = Buffer.from(JSON.stringify({ ...claims, iat: t0.getTime() + 3_600_000 })).toString('base64url');
    expect(verifyRequestState(`${v}.${altered}.${sig}`, claims, at(3_600_000), [NEW_KEY])).toBe('forged');
    const flipped = sig.slice(0, -2) + (sig.endsWith('AA') ? 'AB' : 'AA');
    expect(verifyRequestState(`${v}.${payload}.${flipped}`, claims, t0, [NEW_KEY])).toBe('forged');
    for (const junk of [undefined, null, 42, '', 'v1..', 'v2.a.b', 'a.b.c.d', 'x'.repeat(5_000)]) {
      expect(verifyRequestState(junk, claims, t0, [NEW_KEY])).toBe('forged');
    }
  });

  it('is refused with its signature spelled another way (padding, a stray character, the spare bits): one state has one spelling', () => {
    const state = signRequestState(claims, t0, [NEW_KEY]);
    const [v, payload, sig] = state.split('.');
    // The last of 43 characters carries 4 bits and 2 spare ones: flipping a spare bit decodes to the same bytes.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(sig.at(-1)!);
    const spare = sig.slice(0, -1) + alphabet[last ^ 1];
    expect(Buffer.from(spare, 'base64url').equals(Buffer.from(sig, 'base64url'))).toBe(true);
    for (const other of [`${sig}=`, `${sig}!`, ` ${sig}`, spare]) {
      expect({ other, verdict: verifyRequestState(`${v}.${payload}.${other}`, claims, t0, [NEW_KEY]) }).toEqual({ other, verdict: 'forged' });
    }
  });

  it('rotates: the first key signs, every key verifies, a dropped key no longer does', () => {
    const before = signRequestState(claims, t0, [OLD_KEY]);
    expect(verifyRequestState(before, claims, t0, [NEW_KEY, OLD_KEY])).toBe('valid');
    const after = signRequestState(claims, t0, [NEW_KEY, OLD_KEY]);
    expect(verifyRequestState(after, claims, t0, [NEW_KEY])).toBe('valid');
    expect(verifyRequestState(after, claims, t0, [OLD_KEY])).toBe('forged');
    expect(verifyRequestState(before, claims, t0, [NEW_KEY])).toBe('forged');
  });
});
