/**
 * When the SDK starts (the standard OTEL_* variables), and that a start after a stop in one process
 * exports the service's own spans to the new exporter (docs/operations.md, "Traces").
 */
import { createServer, type Server } from 'node:http';
import { spawn } from 'node:child_process';
import { otlpProtocol, propagatorsOf, tracingWanted } from '../../../services/kernel/tracing-sdk';

describe('tracingWanted', () => {
  it('asks for traces only when an OTLP endpoint is set', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBe(false);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(true);
  });

  it('is off when the SDK is disabled or the traces exporter is none, whatever the endpoint', () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' };
    expect(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: 'TRUE' })).toBe(false);
    expect(tracingWanted({ ...endpoint, OTEL_TRACES_EXPORTER: 'otlp, none' })).toBe(false);
    expect(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: 'false' })).toBe(true);
  });
});

describe('the choices the standard variables make', () => {
  it('exports OTLP over HTTP, protobuf unless JSON is named, and refuses a protocol it has no exporter for', () => {
    expect(otlpProtocol({})).toBe('http/protobuf');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBe('http/json');
    expect(otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
    expect(() => otlpProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/grpc is not supported/);
  });

  it('propagates W3C trace context and baggage by default, what OTEL_PROPAGATORS names, nothing for none, and refuses the rest', () => {
    expect(propagatorsOf({})).toEqual(['tracecontext', 'baggage']);
    expect(propagatorsOf({ OTEL_PROPAGATORS: ' tracecontext ' })).toEqual(['tracecontext']);
    expect(propagatorsOf({ OTEL_PROPAGATORS: 'tracecontext,none' })).toBeNull();
    expect(() => propagatorsOf({ OTEL_PROPAGATORS: 'tracecontext,b3' })).toThrow(/b3 not supported/);
  });
});

describe('startTracing', () => {
  let server: Server;
  let url = '';
  const bodies: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(Buffer.concat(chunks).toString('utf8'));
        res.setHeader('content-type', 'application/json');
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('exports the spans of a start after a stop, and keeps the SDK while another user still runs', async () => {
    // A process of its own, as the service runs: JSON so the test can read the span names.
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/tracing-restarts.ts'], {
      env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_TRACES_SAMPLER: 'always_on' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual({ stoppedOff: true, keptOn: true, offAtEnd: true });
    const exported = bodies.join('\n');
    for (const name of ['catalog.first_run', 'catalog.second_run', 'catalog.shared_run']) expect(exported).toContain(name);
  }, 60_000);
});
