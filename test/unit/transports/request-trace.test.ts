import type { IncomingMessage } from 'node:http';
import type { Context } from 'koa';
import { requestTrace, traceIdOf } from '../../../services/transports/http/request-trace';
import { tracingOn } from '../../../services/kernel/tracing';

describe("the request's span", () => {
  it('passes a request through with no trace of its own while tracing is off, even mounted', async () => {
    expect(tracingOn()).toBe(false);
    const req = { headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } } as unknown as IncomingMessage;
    const ctx = { req, method: 'GET', path: '/api/public/search', status: 200, state: {} } as unknown as Context;
    let served = 0;
    await requestTrace()(ctx, async () => {
      served += 1;
    });
    expect(served).toBe(1);
    // No span was made for it: no trace id for its access line or its exemplar, not even the header's.
    expect(traceIdOf(req)).toBeUndefined();
  });
});
