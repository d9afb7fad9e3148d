/**
 * Panning sessions on the map: a person at a display city moves the page's map (1000 × 600 pixels) 50
 * times, each move a pan of up to a fifth of the view or (one in five) a zoom in or out (zoom 10-14),
 * undated or with one stay for the session, each move's question asked through the default copy (kept
 * answers) at concurrency 1. Each session is asked twice: as the page asks it, the view widened to the
 * viewport grid (kernel/map-tiles.ts, alignViewport), and the view as shown, so the grid's share of the
 * questions already asked, and what it saves, is seen beside the same walk without it.
 */
import { request } from 'undici';
import { alignViewport, type Rectangle } from '../../services/kernel/map-tiles';
import { addDays } from '../../services/kernel/engine/dates';
import type { MarketRecord } from '../../services/kernel/inventory/records';
import { drain, fmt, percentile } from './load';
import type { BenchContext } from './store-bench';

const SESSIONS = 6;
const MOVES = 50;
const MAP_PIXELS = { width: 1000, height: 600 };
const ZOOMS = { min: 10, max: 14, start: 12 };

interface View extends Rectangle {
  zoom: number;
}

/** The rectangle the map shows around a centre at a zoom (Web Mercator: a degree of latitude is longer by 1/cos). */
function viewAt(lat: number, lon: number, zoom: number): View {
  const lonSpan = (MAP_PIXELS.width / (256 * 2 ** zoom)) * 360;
  const latSpan = (MAP_PIXELS.height / (256 * 2 ** zoom)) * 360 * Math.cos((lat * Math.PI) / 180);
  return { south: lat - latSpan / 2, north: lat + latSpan / 2, west: lon - lonSpan / 2, east: lon + lonSpan / 2, zoom };
}

/** One session's 50 views: a random walk from a city's centre. */
function walk(ctx: BenchContext, start: { latitude: number; longitude: number }): View[] {
  const s = ctx.sample;
  let [lat, lon, zoom] = [start.latitude, start.longitude, ZOOMS.start];
  const views: View[] = [];
  for (let i = 0; i < MOVES; i++) {
    if (s.int(0, 4) === 0) zoom = Math.max(ZOOMS.min, Math.min(ZOOMS.max, zoom + (s.int(0, 1) === 0 ? -1 : 1)));
    else {
      const v = viewAt(lat, lon, zoom);
      lon += ((v.east - v.west) * s.int(-20, 20)) / 100;
      lat += ((v.north - v.south) * s.int(-20, 20)) / 100;
    }
    views.push(viewAt(lat, lon, zoom));
  }
  return views;
}

const pathOf = (r: Rectangle, zoom: number, stay: { check_in: string; check_out: string } | null): string =>
  `/api/public/map-search?${new URLSearchParams({
    sw_latitude: String(r.south),
    sw_longitude: String(r.west),
    ne_latitude: String(r.north),
    ne_longitude: String(r.east),
    zoom: String(zoom),
    ...(stay ?? {}),
  }).toString()}`;

export async function panningBench(ctx: BenchContext, markets: MarketRecord[]): Promise<void> {
  const cities = markets.flatMap((m) => m.cities);
  const service = await ctx.service();
  ctx.say(
    `Panning sessions (${SESSIONS} sessions of ${MOVES} moves at zoom ${ZOOMS.min}-${ZOOMS.max}, a move a pan of up to a fifth of the view or a zoom; ` +
      'the default copy, kept answers, c=1):',
  );
  ctx.say('');
  ctx.say('| session | questions already asked | p50 ms | p95 ms | max ms | 5xx/errors |');
  ctx.say('|---|---|---|---|---|---|');
  for (const dated of [false, true]) {
    const sessions = Array.from({ length: SESSIONS }, () => {
      const start = addDays(ctx.today, ctx.sample.int(1, 300));
      return { views: walk(ctx, ctx.sample.pick(cities)), stay: dated ? { check_in: start, check_out: addDays(start, ctx.sample.int(2, 120)) } : null };
    });
    for (const aligned of [true, false]) {
      const latencies: number[] = [];
      let repeated = 0;
      let bad = 0;
      for (const { views, stay } of sessions) {
        const asked = new Set<string>();
        for (const v of views) {
          const path = pathOf(aligned ? alignViewport(v, v.zoom) : v, v.zoom, stay);
          if (asked.has(path)) repeated += 1;
          asked.add(path);
          const t = process.hrtime.bigint();
          const res = await request(service.url + path);
          await drain(res.body);
          latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
          if (res.statusCode >= 500) bad += 1;
        }
      }
      latencies.sort((a, b) => a - b);
      const title = `${dated ? 'dated' : 'undated'}, ${aligned ? 'the view widened to the grid (as the page asks)' : 'the view as shown'}`;
      const share = `${Math.round((100 * repeated) / latencies.length)}%`;
      ctx.say(
        `| ${title} | ${share} | ${fmt(percentile(latencies, 50))} | ${fmt(percentile(latencies, 95))} | ${fmt(latencies[latencies.length - 1])} | ${bad} |`,
      );
    }
  }
  ctx.say('');
}
