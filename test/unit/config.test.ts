import { loadConfig } from '../../services/kernel/config';

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
});
