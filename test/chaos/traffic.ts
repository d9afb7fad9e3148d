/**
 * The fault run's load: `connections` clients, each sending its next request as soon as the last
 * one answered, through the load balancer: every read tool on both transports (its GET route where
 * it has one, and a tools/call in both protocol eras), and booking intents (one request in twelve)
 * with unique emails, a fifth of them repeating an email already acknowledged. Every answer is kept.
 */
import { Agent, request } from 'undici';
import { TOOLS } from '../../services/tools/registry';
import { TOOL_SAMPLES } from '../support/tool-samples';
import { GET_SAMPLES } from '../support/get-samples';
import type { Sample } from '../bench/sample';
import { errorMessage, judge, safeJson, type Answer } from './answers';

const MODERN = '2026-07-28';
/** No answer within this is a timeout (well past the service's 2 s store deadline). */
const CLIENT_TIMEOUT_MS = 10_000;

export interface Booking {
  email: string;
  intentId: string;
}

export interface Traffic {
  answers: Answer[];
  /** Booking intents the service acknowledged (a result with an intent id), in order. */
  acknowledged: Booking[];
  stop(): Promise<void>;
}

interface Call {
  kind: 'read' | 'write';
  transport: 'get' | 'mcp';
  tool: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  email?: string;
}

let rpc = 0;
function toolCall(name: string, args: Record<string, unknown>, era: 'legacy' | 'modern'): Pick<Call, 'path' | 'body' | 'headers'> {
  const params: Record<string, unknown> = { name, arguments: args };
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (era === 'modern') {
    params._meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
    Object.assign(headers, { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name });
  }
  return { path: '/mcp/public', body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params }), headers };
}

/** The JSON-RPC message of a tool-server answer, sent as JSON or as one server-sent event. */
function rpcMessage(contentType: string, text: string): unknown {
  if (!contentType.includes('text/event-stream')) return safeJson(text);
  const data = text.split('\n').find((l) => l.startsWith('data:'));
  return data ? safeJson(data.slice(5).trim()) : null;
}

export function startTraffic(baseUrl: string, sample: Sample, opts: { connections: number; runId: string; startedAt: number }): Traffic {
  const readTools = TOOLS.filter((t) => t.name !== 'booking_intent_tool').map((t) => t.name);
  const answers: Answer[] = [];
  const acknowledged: Booking[] = [];
  let bookings = 0;
  let stopping = false;
  const agent = new Agent({ connections: opts.connections, keepAliveTimeout: 10_000, headersTimeout: CLIENT_TIMEOUT_MS, bodyTimeout: CLIENT_TIMEOUT_MS });

  const nextCall = (): Call => {
    if (sample.int(1, 12) === 1) {
      const repeat = acknowledged.length > 0 && sample.int(1, 5) === 1;
      const email = repeat ? sample.pick(acknowledged).email : `chaos-${opts.runId}-${(bookings += 1)}@example.com`;
      const stay = sample.stay();
      const args = { email, guest_consent: true, home_slug: sample.slug(), start_date: stay.start, end_date: stay.end };
      return {
        kind: 'write',
        transport: 'mcp',
        tool: 'booking_intent_tool',
        email,
        ...toolCall('booking_intent_tool', args, sample.pick(['legacy', 'modern'])),
      };
    }
    const tool = sample.pick(readTools);
    const route = GET_SAMPLES[tool];
    if (route && sample.int(0, 1) === 0) return { kind: 'read', transport: 'get', tool, path: route(sample) };
    return { kind: 'read', transport: 'mcp', tool, ...toolCall(tool, TOOL_SAMPLES[tool](sample), sample.pick(['legacy', 'modern'])) };
  };

  const client = async (): Promise<void> => {
    while (!stopping) {
      const call = nextCall();
      const at = Date.now() - opts.startedAt;
      const t = process.hrtime.bigint();
      let status = 0;
      let outcome: Answer['outcome'];
      let retryAfter = false;
      let detail: string | undefined;
      try {
        const res = await request(baseUrl + call.path, { dispatcher: agent, method: call.body ? 'POST' : 'GET', body: call.body, headers: call.headers });
        const text = await res.body.text();
        status = res.statusCode;
        retryAfter = res.headers['retry-after'] !== undefined;
        const body = call.transport === 'mcp' && status === 200 ? rpcMessage(String(res.headers['content-type'] ?? ''), text) : safeJson(text);
        outcome = judge(call.transport, status, body);
        if (outcome !== 'ok') detail = errorMessage(body) ?? text.slice(0, 120);
        if (call.email && outcome === 'ok') {
          const intentId = (body as { result?: { structuredContent?: { intent_id?: string } } } | null)?.result?.structuredContent?.intent_id;
          if (intentId) acknowledged.push({ email: call.email, intentId });
        }
      } catch (err) {
        outcome = /timeout/i.test(String((err as Error).name) + String((err as Error).message)) ? 'timeout' : 'error';
        detail = `${(err as Error).name}: ${(err as Error).message}`.slice(0, 120);
      }
      answers.push({
        at,
        ms: Number(process.hrtime.bigint() - t) / 1e6,
        kind: call.kind,
        transport: call.transport,
        tool: call.tool,
        status,
        outcome,
        retryAfter,
        detail,
      });
    }
  };
  const running = Promise.all(Array.from({ length: opts.connections }, client));
  return {
    answers,
    acknowledged,
    async stop() {
      stopping = true;
      await running;
      await agent.close();
    },
  };
}
