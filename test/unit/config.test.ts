import { esNodesOf, loadConfig } from '../../services/kernel/config';
import { attemptPolicy } from '../../services/kernel/store/es-client';

describe('loadConfig', () => {
  it('has defaults for a local run', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.esUrl).toBe('http://127.0.0.1:9200');
    expect(c.mongoUrl).toBe('mongodb://127.0.0.1:27017/');
    expect(c.homesAlias).toBe('homes');
    expect(c.publicBaseUrl).toBe('http://localhost:3000');
    expect(c.mapViewEnabled).toBe(true);
  });

  it('reads environment overrides', () => {
    const c = loadConfig({ PORT: '8080', PUBLIC_BASE_URL: 'https://catalog.example/', MAP_VIEW_ENABLED: 'false', HOMES_ALIAS: 'h' });
    expect(c.port).toBe(8080);
    expect(c.publicBaseUrl).toBe('https://catalog.example');
    expect(c.mapViewEnabled).toBe(false);
    expect(c.homesIndexPrefix).toBe('h');
  });

  it('refuses malformed values at start instead of misbehaving later', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ MAP_VIEW_ENABLED: 'maybe' })).toThrow(/MAP_VIEW_ENABLED/);
  });

  it('takes several Elasticsearch nodes as a comma list, and refuses a list with a non-URL in it', () => {
    expect(loadConfig({ ES_URL: 'http://a:9200, http://b:9200,' }).esUrl).toBe('http://a:9200,http://b:9200');
    expect(esNodesOf('http://a:9200,https://b:9243')).toEqual(['http://a:9200', 'https://b:9243']);
    expect(() => loadConfig({ ES_URL: 'http://a:9200,b:9200' })).toThrow(/ES_URL.*b:9200/);
    expect(() => loadConfig({ ES_URL: ' , ' })).toThrow(/ES_URL/);
  });

  it('reads the replicas of the homes index as a number or auto (the default)', () => {
    expect(loadConfig({}).indexReplicas).toBe('auto');
    expect(loadConfig({ INDEX_REPLICAS: '2' }).indexReplicas).toBe(2);
    expect(loadConfig({ INDEX_REPLICAS: '0' }).indexReplicas).toBe(0);
    expect(() => loadConfig({ INDEX_REPLICAS: 'one' })).toThrow(/INDEX_REPLICAS/);
    expect(() => loadConfig({ INDEX_REPLICAS: '-1' })).toThrow(/INDEX_REPLICAS/);
  });
});

describe('ADMIN_ALLOWED_HOSTS', () => {
  it('allows no host besides loopback ones by default, reads a comma list of names in lower case, and refuses a URL or a port', () => {
    expect(loadConfig({}).adminAllowedHosts).toEqual([]);
    expect(loadConfig({ ADMIN_ALLOWED_HOSTS: 'Catalog-1.internal, 10.0.0.7,[fd00::7],' }).adminAllowedHosts).toEqual([
      'catalog-1.internal',
      '10.0.0.7',
      '[fd00::7]',
    ]);
    expect(() => loadConfig({ ADMIN_ALLOWED_HOSTS: 'http://catalog-1.internal' })).toThrow(/ADMIN_ALLOWED_HOSTS/);
    expect(() => loadConfig({ ADMIN_ALLOWED_HOSTS: 'catalog-1.internal:9464' })).toThrow(/ADMIN_ALLOWED_HOSTS/);
  });
});

describe('attemptPolicy', () => {
  it('gives a request on one node the whole store deadline and no retry, as before', () => {
    expect(attemptPolicy(1, 2_000)).toEqual({ requestTimeout: 2_000, maxRetries: 0 });
  });

  it("retries a request on several nodes once, on another node, and gives an attempt the whole deadline (the connection pool's own timeouts follow it)", () => {
    for (const nodes of [2, 3, 5]) {
      expect(attemptPolicy(nodes, 2_000)).toEqual({ requestTimeout: 2_000, maxRetries: 1 });
    }
  });

  it('lets batch work (no deadline) wait long and try every node', () => {
    expect(attemptPolicy(3)).toEqual({ requestTimeout: 30_000, maxRetries: 3 });
    expect(attemptPolicy(1).maxRetries).toBe(2);
  });
});

describe('booking intents and request-state keys', () => {
  it('has defaults, reads overrides, refuses short keys and makes one key when none is set', () => {
    const c = loadConfig({});
    expect(c.bookingIntents).toEqual({ addressPoints: 10, addressWindowSeconds: 3600, emailPoints: 5, emailWindowSeconds: 86400, retentionDays: 365 });
    expect(c.requestState.generated).toBe(true);
    expect(c.requestState.secrets).toHaveLength(1);
    expect(c.requestState.secrets[0].length).toBeGreaterThanOrEqual(32);
    const keys = `${'a'.repeat(32)}, ${'b'.repeat(40)}`;
    expect(loadConfig({ REQUEST_STATE_SECRETS: keys, BOOKING_INTENT_RETENTION_DAYS: '30' })).toMatchObject({
      requestState: { secrets: ['a'.repeat(32), 'b'.repeat(40)], generated: false },
      bookingIntents: { retentionDays: 30 },
    });
    expect(() => loadConfig({ REQUEST_STATE_SECRETS: 'short' })).toThrow(/REQUEST_STATE_SECRETS/);
  });
});
