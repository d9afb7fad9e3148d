import { endOf, failedRead, figures, judge, type Answer } from '../../../test/chaos/answers';

const mcpError = (code: string): unknown => ({
  result: { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: { code, message: 'm' } }) }] },
});

describe('judge (how the fault run reads an answer)', () => {
  it('takes a 2xx, and a business error such as an unknown slug, as answered', () => {
    expect(judge('get', 200, {})).toBe('ok');
    expect(judge('get', 404, { error: { code: 'not_found', message: 'm' } })).toBe('ok');
    expect(judge('mcp', 200, { result: { content: [] } })).toBe('ok');
    expect(judge('mcp', 200, mcpError('not_found'))).toBe('ok');
  });

  it("tells the service's own 503 (a store it needs is down) from any other 5xx, on both transports", () => {
    expect(judge('get', 503, { error: { code: 'service_unavailable', message: 'm' } })).toBe('unavailable');
    expect(judge('mcp', 200, mcpError('service_unavailable'))).toBe('unavailable');
    expect(judge('get', 503, '<html>No server is available</html>')).toBe('server_error');
    expect(judge('get', 502, null)).toBe('server_error');
    expect(judge('mcp', 200, mcpError('internal_error'))).toBe('server_error');
    expect(judge('mcp', 200, null)).toBe('server_error');
  });
});

const answer = (at: number, over: Partial<Answer> = {}): Answer => ({
  at,
  ms: 10,
  kind: 'read',
  transport: 'get',
  tool: 'search_apartments_tool',
  status: 200,
  outcome: 'ok',
  retryAfter: false,
  ...over,
});

describe('figures of a window of the run', () => {
  it('counts the requests that ended inside the window, and every failed read but not a failed write', () => {
    const answers = [
      answer(0),
      answer(100, { status: 502, outcome: 'server_error' }),
      answer(150, { kind: 'write', tool: 'booking_intent_tool', status: 503, outcome: 'unavailable' }),
      answer(200, { status: 0, outcome: 'timeout', ms: 90 }),
      answer(300, { status: 502, outcome: 'server_error' }),
    ];
    const f = figures(answers, 50, 300, new Set());
    expect(f.requests).toBe(3);
    expect(f.failedReads).toBe(2);
    expect(answers.filter(failedRead)).toHaveLength(3);
    expect(f.byStatus).toEqual({ '502': 1, '503': 1, timeout: 1 });
    expect(f.lastFailureAfter).toBe(240);
    expect(f.p99).toBe(90);
  });

  it('judges a read that began before the window and failed inside it (a copy killed under it) by the window it failed in', () => {
    const inFlight = answer(990, { ms: 40, status: 0, outcome: 'error', detail: 'SocketError: other side closed' });
    expect(endOf(inFlight)).toBe(1_030);
    expect(figures([inFlight], 0, 1_000, new Set()).failedReads).toBe(0);
    const next = figures([inFlight], 1_000, 2_000, new Set());
    expect(next.failedReads).toBe(1);
    expect(next.lastFailureAfter).toBe(30);
  });

  it('separates the failed reads of tools that need MongoDB, and counts GET 503s without Retry-After', () => {
    const f = figures(
      [
        answer(0, { tool: 'get_apartment_tool', status: 503, outcome: 'unavailable', retryAfter: true }),
        answer(1, { tool: 'get_quote_tool', status: 503, outcome: 'unavailable', retryAfter: false }),
        answer(2, { tool: 'list_markets_tool', status: 503, outcome: 'unavailable', retryAfter: true }),
      ],
      0,
      100,
      new Set(['get_apartment_tool', 'get_quote_tool']),
    );
    expect(f.failedReads).toBe(3);
    expect(f.failedReadsNotNeedingMongo).toBe(1);
    expect(f.unavailableWithoutRetryAfter).toBe(1);
  });

  it('has no last failure when nothing failed', () => {
    expect(figures([answer(0), answer(1)], 0, 100, new Set()).lastFailureAfter).toBeNull();
  });
});
