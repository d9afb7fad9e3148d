import { adminHostAllowed } from '../../../services/transports/http/admin-host';

describe('adminHostAllowed', () => {
  it.each(['localhost', 'localhost:9464', 'LOCALHOST:80', '127.0.0.1', '127.0.0.1:9464', '[::1]', '[::1]:9464', 'localhost.:9464'])(
    'answers the loopback name %s, with any port',
    (host) => {
      expect(adminHostAllowed(host, [])).toBe(true);
    },
  );

  it.each(['attacker.example', 'attacker.example:9464', '127.0.0.1.attacker.example', 'localhost@attacker.example', 'localhost/x', '', 'a b'])(
    'refuses %p, a name that is not loopback and not listed',
    (host) => {
      expect(adminHostAllowed(host, [])).toBe(false);
    },
  );

  it.each(['10.0.3.7:9464', '10.0.3.7', '[fd00::7]:9464', '192.168.1.20'])('answers the address %s: discovery and probes scrape a copy by it', (host) => {
    expect(adminHostAllowed(host, [])).toBe(true);
  });

  it('refuses a request without Host, and answers a listed name with any port and in any case', () => {
    expect(adminHostAllowed(undefined, ['catalog-1.internal'])).toBe(false);
    expect(adminHostAllowed('Catalog-1.Internal:9464', ['catalog-1.internal'])).toBe(true);
    expect(adminHostAllowed('catalog-2.internal:9464', ['catalog-1.internal'])).toBe(false);
  });
});
