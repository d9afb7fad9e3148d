/**
 * `tsx test/bench/profile-search.ts [seconds] [connections] [search|flex|window|viewport|viewport-dated|overview|words|buildings|apartment|apartment-mcp|apartment-mcp-2026]`: a CPU profile of the
 * service process under a dated market search (a window of move-in dates, an availability overview, ...) load on the bench
 * inventory, written by `node --cpu-prof` to CPU_PROF_DIR (default ./profiles), with the hottest
 * functions by self time printed.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { addDays, todayIso } from '../../services/kernel/engine/dates';
import { runLoad, row, type Probe } from './load';
import { startServiceProcess } from './service-process';
import { connectMongo } from '../../services/kernel/store/mongo';
import { loadConfig } from '../../services/kernel/config';

const WORDS = ['rooftop', 'coworking', 'lounge', 'courtyard', 'sauna', 'concierge', 'storage', 'pool', 'gym', 'lockers', 'grill', 'media'];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

async function main(): Promise<void> {
  const seconds = Number(process.argv[2] ?? 15);
  const connections = Number(process.argv[3] ?? 16);
  const dir = path.resolve(process.env.CPU_PROF_DIR ?? 'profiles');
  const env = {
    MONGO_DB: 'catalog_bench',
    HOMES_ALIAS: 'bench-homes',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_POINTS: '1000000000',
    RATE_LIMIT_OVERVIEW_POINTS: '1000000000',
    RATE_LIMIT_STATIC_POINTS: '1000000000',
    // A viewport's profile is of the computed path: every answer computed, none kept.
    ...(process.argv[4]?.startsWith('viewport') ? { MAP_CACHE_MB: '0' } : {}),
  };
  const config = loadConfig({ ...process.env, MONGO_DB: 'catalog_bench' });
  const mongo = await connectMongo(config.mongoUrl, config.mongoDb);
  const marketRecords = await mongo.collections.markets.find({}).toArray();
  const markets = marketRecords.map((m) => m.slug);
  const cities = marketRecords.flatMap((m) => m.cities);
  const shape = process.argv[4] ?? 'search';
  // Every home's slug only for the apartment reads: a scan of the whole inventory is slow on the Mongo-wire server.
  const homeSlugs = shape.startsWith('apartment') ? (await mongo.collections.homes.find({}, { projection: { slug: 1 } }).toArray()).map((h) => h.slug) : [];
  await mongo.close();
  const today = todayIso(new Date());
  let i = 0;
  const probe = (): Probe => {
    i++;
    if (shape === 'overview') {
      return {
        method: 'POST',
        path: '/mcp/public',
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: i,
          method: 'tools/call',
          params: { name: 'availability_overview_tool', arguments: { market: process.env.OV_MARKET ?? markets[i % markets.length], page: 1 + (i % 3) } },
        }),
      };
    }
    const start = addDays(today, 1 + ((i * 37) % 300));
    if (shape === 'apartment' || shape === 'apartment-mcp' || shape === 'apartment-mcp-2026') {
      // The apartment read of a home drawn over the whole bench inventory, as a GET or a tool call.
      const slug = homeSlugs[(i * 7919) % homeSlugs.length];
      if (shape === 'apartment') return { path: `/api/public/homes/${slug}` };
      const params: Record<string, unknown> = { name: 'get_apartment_tool', arguments: { slug } };
      if (shape === 'apartment-mcp')
        return { method: 'POST', path: '/mcp/public', body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params }) };
      params._meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
      return {
        method: 'POST',
        path: '/mcp/public',
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params }),
        headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'get_apartment_tool' },
      };
    }
    if (shape === 'buildings') {
      const args = {
        market: markets[i % markets.length],
        start_date: start,
        end_date: addDays(start, 30 + ((i * 13) % 90)),
        sort_by: ['recommended', 'price_asc', 'rating_desc'][i % 3],
      };
      return {
        method: 'POST',
        path: '/mcp/public',
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'search_properties_tool', arguments: args } }),
      };
    }
    if (shape === 'viewport' || shape === 'viewport-dated') {
      // A city-zoom viewport (zoom 12) around a display city, as the viewport bench asks it.
      const c = cities[i % cities.length];
      const box = `sw_latitude=${c.latitude - 0.1}&sw_longitude=${c.longitude - 0.17}&ne_latitude=${c.latitude + 0.1}&ne_longitude=${c.longitude + 0.17}&zoom=12`;
      const dates = shape === 'viewport-dated' ? `&check_in=${start}&check_out=${addDays(start, 2 + ((i * 13) % 120))}` : '';
      return { path: `/api/public/map-search?${box}${dates}` };
    }
    if (shape === 'window')
      return { path: `/api/public/search?market=${markets[i % markets.length]}&check_in=${start}&latest_check_in=${addDays(start, 30)}&nights=90` };
    if (shape === 'flex')
      return {
        path: `/api/public/search?market=${markets[i % markets.length]}&check_in=${start}&check_out=indefinite&committed_nights=${[180, 270, 365][i % 3]}`,
      };
    const dated = `market=${markets[i % markets.length]}&check_in=${start}&check_out=${addDays(start, 2 + ((i * 13) % 120))}`;
    // A two-word q of the demo's amenity words, as the search bench's worded shape asks it.
    if (shape === 'words') return { path: `/api/public/search?${dated}&q=${WORDS[i % WORDS.length]}+${WORDS[(i * 7) % WORDS.length]}` };
    return { path: `/api/public/search?${dated}` };
  };
  const before = new Set(readdirSync(dir, { withFileTypes: false }).map(String));
  const svc = await startServiceProcess(env, ['--cpu-prof', `--cpu-prof-dir=${dir}`]);
  process.stdout.write(row(`${shape}, service, c=${connections}`, await runLoad(svc.url, probe, { connections, seconds })) + '\n');
  await svc.close();
  // The largest new profile is the main thread's (tsx's loader thread writes a small one too).
  const file = readdirSync(dir)
    .filter((f) => !before.has(f) && f.endsWith('.cpuprofile'))
    .sort((a, b) => statSync(path.join(dir, b)).size - statSync(path.join(dir, a)).size)[0];
  if (!file) throw new Error('no profile written');
  const prof = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Profile;
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  for (const s of prof.samples) {
    const n = byId.get(s)!;
    const file = n.callFrame.url.replace(/^.*node_modules\//, 'nm/').replace(/^.*\/main\//, '');
    // PROFILE_BY=package: self time by package (node_modules/<name>) or project folder, to see where a layer's cost goes.
    const key =
      process.env.PROFILE_BY === 'package'
        ? file.startsWith('nm/')
          ? file
              .split('/')
              .slice(0, file.startsWith('nm/@') ? 3 : 2)
              .join('/')
          : file.split('/').slice(0, 2).join('/') || `(${n.callFrame.functionName || 'native'})`
        : `${n.callFrame.functionName || '(anonymous)'} ${file}:${n.callFrame.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + 1);
  }
  const total = prof.samples.length;
  for (const [k, v] of [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40))
    process.stdout.write(`${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}\n`);
  process.stdout.write(`profile: ${path.join(dir, file)}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(String((err as Error).stack ?? err) + '\n');
  process.exit(1);
});
