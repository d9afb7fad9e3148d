/** Who the client is (services/transports/client-address.ts): the peer, or a trusted proxy's forwarded address; IPv6 by /64. */
import type { IncomingMessage } from 'node:http';
import { clientAddress, clientKeyOf, trustedProxies } from '../../../services/transports/client-address';

function request(peer: string, forwardedFor?: string): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { socket: { remoteAddress: peer }, connection: { remoteAddress: peer }, headers } as unknown as IncomingMessage;
}

describe('clientAddress', () => {
  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress(request('192.0.2.7', '203.0.113.1'), trustedProxies([]))).toBe('192.0.2.7');
  });

  it('is the forwarded address when the peer is a trusted proxy', () => {
    expect(clientAddress(request('10.0.0.5', '203.0.113.1'), trustedProxies(['10.0.0.0/8']))).toBe('203.0.113.1');
  });

  it('is the nearest untrusted hop: entries a client prepended before the trusted proxies are ignored', () => {
    const trust = trustedProxies(['10.0.0.0/8']);
    expect(clientAddress(request('10.0.0.5', '198.51.100.9, 203.0.113.1, 10.0.0.4'), trust)).toBe('203.0.113.1');
  });

  it('ignores X-Forwarded-For from a peer outside the trusted list', () => {
    expect(clientAddress(request('192.0.2.7', '203.0.113.1'), trustedProxies(['10.0.0.0/8']))).toBe('192.0.2.7');
  });

  it('reads an IPv4-mapped IPv6 peer as the IPv4 address it is', () => {
    expect(clientAddress(request('::ffff:192.0.2.7'), trustedProxies([]))).toBe('192.0.2.7');
  });

  it('refuses a trusted-proxy list entry that is not an address or CIDR', () => {
    expect(() => trustedProxies(['10.0.0.0/33'])).toThrow();
    expect(() => trustedProxies(['not-an-address'])).toThrow();
  });
});

describe('clientKeyOf', () => {
  it('keys an IPv4 client by its whole address', () => {
    expect(clientKeyOf('203.0.113.1')).toBe('203.0.113.1');
    expect(clientKeyOf('203.0.113.2')).not.toBe(clientKeyOf('203.0.113.1'));
  });

  it('keys IPv6 clients of one /64 alike, and of another /64 apart', () => {
    const a = clientKeyOf('2001:db8:0:1::1');
    expect(clientKeyOf('2001:db8:0:1:ffff:ffff:ffff:ffff')).toBe(a);
    expect(clientKeyOf('2001:0db8:0000:0001:0000:0000:0000:0002')).toBe(a);
    expect(clientKeyOf('2001:db8:0:2::1')).not.toBe(a);
    expect(a).toBe('2001:db8:0:1::/64');
  });
});
