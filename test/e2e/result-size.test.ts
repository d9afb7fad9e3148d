/**
 * Embedded photos small enough for agent clients (MCP hosts cap a tool result
 * near 1 MiB and tool output near 25k tokens). Measures the largest search result the tool server
 * sends: a full page of 40 apartments with 5 embedded hero photos, on every market of the world; and
 * the map, which has no paging: its text block lists pins in brief so 250 of them stay readable.
 */
import { EMBED_MAX_BYTES } from '../../services/media/photos';
import { MAP_PINS } from '../../services/kernel/limits/pages';
import { PIN_BRIEF, PINS_NOTE } from '../../services/tools/search-on-map';
import { startFixture, type Fixture } from '../support/fixture';
import { jsonRpcMessage } from '../support/json-rpc-answer';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 400 });
});

afterAll(async () => {
  await fx?.close();
});

const RESULT_MAX_BYTES = 1024 * 1024;
/** Text a client reads as tokens: ~4 characters a token for JSON. */
const TEXT_MAX_TOKENS = 25_000;

interface RawResult {
  bytes: number;
  result: { content: Array<{ type: string; text?: string; data?: string; _meta?: { home_slug?: string } }>; structuredContent: { homes: unknown[] } };
}

async function rawCall(args: Record<string, unknown>, name = 'search_apartments_tool'): Promise<RawResult> {
  const res = await fetch(`${fx.url}/mcp/public`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  expect(res.status).toBe(200);
  return { bytes: Buffer.byteLength(text), result: jsonRpcMessage(text).result };
}

describe('search_apartments_tool result size', () => {
  it('keeps a full page of 40 with 5 embedded hero photos under 1 MiB, each photo within its budget and the text under 25k tokens', async () => {
    const markets = (await fx.get('/api/public/markets')).body.markets as Array<{ slug: string }>;
    let largest: { market: string; bytes: number; images: number; textChars: number } | undefined;
    for (const { slug } of markets) {
      const { bytes, result } = await rawCall({ market: slug, per_page: 40 });
      const images = result.content.filter((c) => c.type === 'image');
      const text = result.content.filter((c) => c.type === 'text').map((c) => c.text ?? '');
      expect(images.length).toBeLessThanOrEqual(5);
      for (const img of images) expect(Buffer.from(img.data!, 'base64').length).toBeLessThanOrEqual(EMBED_MAX_BYTES);
      expect(bytes).toBeLessThan(RESULT_MAX_BYTES);
      const textChars = text.join('').length;
      expect(textChars / 4).toBeLessThan(TEXT_MAX_TOKENS);
      if (!largest || bytes > largest.bytes) largest = { market: slug, bytes, images: images.length, textChars };
    }
    // The measured page really is a full one with photos, so the bound above was tested.
    expect(largest!.images).toBe(5);
    const { result } = await rawCall({ market: largest!.market, per_page: 40 });
    expect(result.structuredContent.homes).toHaveLength(40);
    process.stdout.write(
      `largest search result: ${largest!.market}, ${(largest!.bytes / 1024).toFixed(0)} KiB with ${largest!.images} photos, ` +
        `text ${(largest!.textChars / 1024).toFixed(0)} KiB (~${Math.round(largest!.textChars / 4)} tokens)\n`,
    );
  });
});

describe('search_apartments_on_map result size', () => {
  it(`lists pins in brief in its text, so ${MAP_PINS} pins stay under 25k tokens, and keeps every field in structuredContent`, async () => {
    const markets = (await fx.get('/api/public/markets')).body.markets as Array<{ slug: string }>;
    let widest = { market: '', pins: 0, pinChars: 0, messagePerPin: 0 };
    for (const { slug } of markets) {
      const { bytes, result } = await rawCall({ market: slug }, 'search_apartments_on_map');
      const full = result.structuredContent as { homes: Array<Record<string, unknown>> } & Record<string, unknown>;
      const text = JSON.parse(result.content[0].text!) as { homes: Array<Record<string, unknown>>; note: string } & Record<string, unknown>;
      // The brief is the answer's envelope and, pin by pin in the same order, the named fields of each.
      const { homes: pins, note, ...envelope } = text;
      const { homes, ...fullEnvelope } = full;
      expect(note).toBe(PINS_NOTE);
      expect(envelope).toEqual(fullEnvelope);
      expect(pins).toEqual(homes.map((h) => Object.fromEntries(PIN_BRIEF.map((k) => [k, h[k]]))));
      expect(Object.keys(homes[0] ?? {}).length).toBeGreaterThan(PIN_BRIEF.length + 5);
      if (pins.length === 0) continue;
      const pinChars = Math.max(...pins.map((p) => JSON.stringify(p).length + 1));
      // The most a text block of this market's answer could take with the most pins the map sends.
      const envelopeChars = JSON.stringify({ ...envelope, note, homes: [] }).length;
      expect((envelopeChars + pinChars * MAP_PINS) / 4).toBeLessThan(TEXT_MAX_TOKENS);
      expect((bytes / pins.length) * MAP_PINS).toBeLessThan(RESULT_MAX_BYTES);
      if (pins.length > widest.pins) widest = { market: slug, pins: pins.length, pinChars, messagePerPin: bytes / pins.length };
    }
    expect(widest.pins).toBeGreaterThan(20);
    process.stdout.write(
      `map: ${widest.market} ${widest.pins} pins; at ${MAP_PINS} pins the text would be ~${Math.round((widest.pinChars * MAP_PINS) / 4)} tokens, ` +
        `the whole answer ~${Math.round((widest.messagePerPin * MAP_PINS) / 1024)} KiB\n`,
    );
  });
});
