/** Where a watch may send its changes (services/watches/webhook-url.ts): https to public addresses, or a host the operator allows. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, fetch } from 'undici';
import { addressRange, checkWebhookUrl, pinnedLookup, vetWebhookUrl, type ResolveHost } from '../../../services/watches/webhook-url';

describe('checkWebhookUrl', () => {
  it.each([
    ['ftp://example.com/x', /https/],
    ['http://93.184.215.14/hook', /https/],
    ['https://127.0.0.1/hook', /loopback/],
    ['https://10.0.0.1/hook', /private/],
    ['https://172.16.5.4/hook', /private/],
    ['https://169.254.169.254/', /linkLocal/],
    ['https://[fe80::1]/', /linkLocal/],
    ['https://[fd00::1]/', /uniqueLocal/],
    ['https://[::ffff:10.0.0.1]/', /private/],
    ['https://0.0.0.0/', /unspecified/],
    ['https://100.64.0.1/', /carrierGradeNat/],
    ['not a url', /not a URL/],
  ])('refuses %s', async (url, why) => {
    await expect(checkWebhookUrl(url, [])).rejects.toMatchObject({ code: 'invalid_parameters', message: expect.stringMatching(why) });
  });

  it('accepts https to a public address, and an allowed host over http whatever it resolves to', async () => {
    await expect(checkWebhookUrl('https://93.184.215.14/hook', [])).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('http://127.0.0.1:8080/hook', ['127.0.0.1'])).resolves.toBeInstanceOf(URL);
  });

  it('reads an IPv4-mapped IPv6 address as its IPv4', () => {
    expect(addressRange('::ffff:127.0.0.1')).toBe('loopback');
    expect(addressRange('8.8.8.8')).toBe('unicast');
  });

  describe('a host name, by every address DNS gives for it', () => {
    const dns: Record<string, string[]> = {
      'hooks.public.test': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
      'intranet.corp.test': ['10.20.30.40'],
      'metadata.cloud.test': ['169.254.169.254'],
      'split.horizon.test': ['93.184.215.14', '192.168.1.20'],
      'mapped.test': ['::ffff:172.16.0.9'],
    };
    const resolve: ResolveHost = async (host) => (dns[host] ?? []).map((address) => ({ address }));

    it.each([
      ['https://intranet.corp.test/hook', /private address \(10\.20\.30\.40\)/],
      ['https://metadata.cloud.test/latest', /linkLocal address/],
      ['https://split.horizon.test/hook', /private address \(192\.168\.1\.20\)/],
      ['https://mapped.test/hook', /private address/],
      ['https://nowhere.test/hook', /does not resolve/],
    ])('refuses %s', async (url, why) => {
      await expect(checkWebhookUrl(url, [], resolve)).rejects.toMatchObject({ code: 'invalid_parameters', message: expect.stringMatching(why) });
    });

    it('accepts a name whose every address is public, and an allowed name without asking DNS', async () => {
      await expect(checkWebhookUrl('https://hooks.public.test/hook', [], resolve)).resolves.toBeInstanceOf(URL);
      const never: ResolveHost = () => Promise.reject(new Error('asked DNS'));
      await expect(checkWebhookUrl('http://intranet.corp.test/hook', ['intranet.corp.test'], never)).resolves.toBeInstanceOf(URL);
    });
  });
});

describe('a delivery connects where the URL was checked', () => {
  it('vetWebhookUrl keeps the addresses it checked, and none for a host the operator allows', async () => {
    const resolve: ResolveHost = async () => [{ address: '93.184.215.14' }, { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c' }];
    await expect(vetWebhookUrl('https://hooks.example.com/x', [], resolve)).resolves.toMatchObject({
      addresses: ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    });
    await expect(vetWebhookUrl('http://intranet.corp.test/hook', ['intranet.corp.test'], resolve)).resolves.toMatchObject({ addresses: null });
  });

  it('a connection given the pinned lookup reaches the checked address, whatever DNS would answer for the name', async () => {
    // `.invalid` never resolves (RFC 6761): only the pin can connect it, so a second DNS answer is never asked for.
    const server = createServer((_req, res) => res.end('pinned'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const pinned = new Agent({ connect: { lookup: pinnedLookup(['127.0.0.1']) } });
    const plain = new Agent();
    try {
      const res = await fetch(`http://rebinding.invalid:${port}/`, { dispatcher: pinned });
      expect(await res.text()).toBe('pinned');
      await expect(fetch(`http://rebinding.invalid:${port}/`, { dispatcher: plain })).rejects.toThrow();
    } finally {
      await pinned.close();
      await plain.close();
      server.close();
    }
  });
});
