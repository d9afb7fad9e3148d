import {
  checkOriginAndHost,
  isLoopbackHostname,
  originAndHostGuard,
  sdkOriginAndHostCheck,
  type OriginPolicy,
} from '../../../services/transports/mcp/origin-guard';

const onLoopback: OriginPolicy = { allowedOrigins: [], publicBaseUrl: 'http://localhost:3000', listenHost: '127.0.0.1' };
const public_: OriginPolicy = { allowedOrigins: [], publicBaseUrl: 'https://catalog.example', listenHost: '0.0.0.0' };
const allowed = (origin: string | undefined, host: string | undefined, policy: OriginPolicy) => checkOriginAndHost(origin, host, policy).allowed;

describe('tool server Origin check', () => {
  it('passes requests without Origin (server-side clients)', () => {
    expect(allowed(undefined, 'catalog.example', public_)).toBe(true);
  });

  it('passes the service own origin and loopback origins on any port', () => {
    expect(allowed('https://catalog.example', 'catalog.example', public_)).toBe(true);
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://[::1]:8080', 'http://127.8.9.10']) {
      expect(allowed(origin, 'catalog.example', public_)).toBe(true);
    }
  });

  it('refuses a foreign origin by default: * is never the default', () => {
    expect(checkOriginAndHost('https://evil.example', 'catalog.example', public_)).toEqual({
      allowed: false,
      reason: expect.stringMatching(/Origin not allowed/),
    });
    expect(allowed('http://catalog.example', 'catalog.example', public_)).toBe(false); // another scheme is another origin
    expect(allowed('null', 'catalog.example', public_)).toBe(false);
    expect(allowed('https://catalog.example.evil.example', 'catalog.example', public_)).toBe(false);
  });

  it('passes listed origins, and every origin only when * is listed', () => {
    const listed = { ...public_, allowedOrigins: ['https://app.example'] };
    expect(allowed('https://app.example', 'catalog.example', listed)).toBe(true);
    expect(allowed('https://app.example:8443', 'catalog.example', listed)).toBe(false);
    expect(allowed('https://any.example', 'catalog.example', { ...public_, allowedOrigins: ['*'] })).toBe(true);
  });
});

describe('tool server Host check', () => {
  it('refuses a foreign Host when the service listens on loopback (DNS rebinding)', () => {
    expect(checkOriginAndHost(undefined, 'evil.example.com', onLoopback)).toEqual({ allowed: false, reason: expect.stringMatching(/Host not allowed/) });
    expect(allowed('http://evil.example.com', 'evil.example.com', onLoopback)).toBe(false);
  });

  it('passes loopback hosts and the public base URL host (a local reverse proxy) when listening on loopback', () => {
    for (const host of ['127.0.0.1:3917', 'localhost', '[::1]:3000']) expect(allowed(undefined, host, onLoopback)).toBe(true);
    expect(allowed(undefined, 'catalog.example', { ...onLoopback, publicBaseUrl: 'https://catalog.example' })).toBe(true);
  });

  it('does not judge Host when the service listens on every interface (behind a load balancer)', () => {
    expect(allowed(undefined, 'any-name.example', public_)).toBe(true);
  });

  it('knows which host names are loopback', () => {
    expect(['localhost', 'LOCALHOST', 'app.localhost', '127.0.0.1', '127.255.0.1', '[::1]', '::1'].every(isLoopbackHostname)).toBe(true);
    expect(['localhost.evil.example', '128.0.0.1', '10.0.0.1', 'example.com', '127.0.0.1.evil.example'].some(isLoopbackHostname)).toBe(false);
  });
});

describe('the SDK Origin and Host validators under our rule', () => {
  const listed: OriginPolicy = { ...public_, allowedOrigins: ['https://app.example'] };
  const sdkAllows = (policy: OriginPolicy, host: string | undefined, origin?: string) => sdkOriginAndHostCheck(policy)(origin, host).allowed;

  it('are looser on Origin (a host name on any scheme and port): ours refuses what they let through, and the guard runs both', () => {
    for (const origin of ['https://app.example:8443', 'http://app.example', 'http://catalog.example']) {
      expect({ origin, sdk: sdkAllows(listed, 'catalog.example', origin) }).toEqual({ origin, sdk: true });
      expect({ origin, ours: allowed(origin, 'catalog.example', listed) }).toEqual({ origin, ours: false });
      expect(originAndHostGuard(listed)(origin, 'catalog.example')).toEqual({ allowed: false, reason: expect.stringMatching(/MCP_ALLOWED_ORIGINS/) });
    }
    expect(originAndHostGuard(listed)('https://app.example', 'catalog.example').allowed).toBe(true);
  });

  it('refuse what ours refuses: a foreign origin, the opaque null origin', () => {
    for (const origin of ['https://evil.example', 'null', 'https://catalog.example.evil.example']) {
      expect(sdkOriginAndHostCheck(public_)(origin, 'catalog.example')).toEqual({ allowed: false, reason: expect.stringMatching(/^Origin not allowed/) });
    }
    expect(sdkAllows({ ...public_, allowedOrigins: ['*'] }, 'catalog.example', 'https://any.example')).toBe(true);
  });

  it('are stricter on Host when listening on loopback (loopback by name only): the guard refuses what they refuse', () => {
    for (const host of ['app.localhost', '127.8.9.10:3000']) {
      expect({ host, ours: allowed(undefined, host, onLoopback) }).toEqual({ host, ours: true });
      expect({ host, sdk: sdkAllows(onLoopback, host) }).toEqual({ host, sdk: false });
      expect(originAndHostGuard(onLoopback)(undefined, host)).toEqual({ allowed: false, reason: expect.stringMatching(/^Host not allowed: Invalid Host/) });
    }
    for (const host of ['127.0.0.1:3917', 'localhost', '[::1]:3000']) expect(sdkAllows(onLoopback, host)).toBe(true);
    expect(sdkAllows({ ...onLoopback, publicBaseUrl: 'https://catalog.example' }, 'catalog.example')).toBe(true);
    expect(sdkAllows(onLoopback, 'evil.example.com')).toBe(false);
  });

  it('do not judge Host when the service listens on every interface', () => {
    expect(sdkAllows(public_, 'any-name.example')).toBe(true);
  });
});
