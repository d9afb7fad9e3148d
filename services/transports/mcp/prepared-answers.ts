/**
 * Answers that are the same for every caller, sent from a prepared buffer: `tools/list` (two of it: for
 * hosts declaring MCP Apps, and for every other client), `resources/list`, `resources/templates/list`,
 * `prompts/list` and `resources/read` of a widget. Each
 * is what the SDK answered the first time it was asked on that era (JSON on 2026-07-28, an event
 * stream of one message on 2025), kept as its headers and the text before and after the request's id,
 * so later requests cost a string join instead of a server, a transport and the serialisation of
 * ~60 KB of HTML or schemas. Only a plain request takes this path (./plain-request.ts); anything
 * else, every error included, goes to the SDK. A test compares both answers for each of them on both
 * eras (test/e2e/mcp-fast-path.test.ts).
 */
import { WIDGETS } from '../../widgets/catalog';
import { rendersWidgets } from './client-support';
import { plainRequest, type PlainRequest, type RequestHeaders } from './plain-request';

/** The id the preparing request carries: found once in the SDK's answer and cut out there. */
const PREPARING_ID = 'prepared-answer-0c5e';

const LISTS = ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'];
const WIDGET_URIS = new Set<string>(WIDGETS.map((w) => w.uri));

export interface PreparedRequest {
  /** Which prepared answer: the era, the method and (for a read) the resource. */
  key: string;
  id: string | number;
  /** The same request with the preparing id, for the SDK to answer the first time. */
  preparing: Record<string, unknown>;
}

/** The prepared answer this request may get, or null: the SDK answers it. */
export function preparedRequest(body: unknown, headers: RequestHeaders): PreparedRequest | null {
  const method = typeof body === 'object' && body !== null ? (body as { method?: unknown }).method : undefined;
  if (typeof method !== 'string') return null;
  let plain: PlainRequest | null = null;
  let resource = '';
  if (LISTS.includes(method)) {
    plain = plainRequest(body, headers, method, []);
  } else if (method === 'resources/read') {
    const uri = (body as { params?: { uri?: unknown } }).params?.uri;
    if (typeof uri !== 'string' || !WIDGET_URIS.has(uri)) return null;
    plain = plainRequest(body, headers, method, ['uri'], uri);
    resource = uri;
  }
  if (!plain) return null;
  // tools/list is one list for a 2026-07-28 host of widgets and another for any other client (a 2025 host's session id is never plain).
  const host = method === 'tools/list' && plain.era === 'modern' && rendersWidgets(plain.params._meta) ? 'host' : '';
  return { key: `${plain.era} ${method} ${resource} ${host}`, id: plain.id, preparing: { ...(body as object), id: PREPARING_ID } };
}

/** An answer as the transport sends it: status, headers (lower-case names) and the body's bytes. */
export interface WireAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

interface Prepared {
  headers: Record<string, string>;
  before: string;
  after: string;
}

export class PreparedAnswers {
  private readonly answers = new Map<string, Promise<Prepared | null>>();

  /** The answer to `request`, from the buffer; `ask` runs the SDK the first time (and whenever its answer could not be prepared). */
  async answer(request: PreparedRequest, ask: (preparing: Record<string, unknown>) => Promise<WireAnswer>): Promise<WireAnswer | null> {
    let parts = this.answers.get(request.key);
    if (!parts) {
      parts = ask(request.preparing).then(split, () => null);
      this.answers.set(request.key, parts);
    }
    const prepared = await parts;
    // An answer that could not be prepared is asked again next time, not kept as a failure.
    if (!prepared) {
      this.answers.delete(request.key);
      return null;
    }
    return { status: 200, headers: prepared.headers, body: Buffer.from(`${prepared.before}${JSON.stringify(request.id)}${prepared.after}`) };
  }
}

/** The text around the preparing id of a successful answer, or null when it is anything else. */
function split(answer: WireAnswer): Prepared | null {
  const type = answer.headers['content-type'] ?? '';
  if (answer.status !== 200 || !(type.startsWith('application/json') || type.startsWith('text/event-stream'))) return null;
  const text = answer.body.toString('utf8');
  const marker = JSON.stringify(PREPARING_ID);
  const at = text.indexOf(marker);
  if (at < 0 || text.indexOf(marker, at + 1) >= 0) return null;
  // The answer must be a result (an error would differ per request).
  if (!text.includes('"result"')) return null;
  return { headers: answer.headers, before: text.slice(0, at), after: text.slice(at + marker.length) };
}
