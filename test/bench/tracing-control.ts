/**
 * A bench copy's control port (./switched-service.ts, ./floor-server.ts): `POST /tracing` with a JSON
 * object of OTEL_* variables sets the process's tracing as they say over its own environment
 * (services/kernel/tracing-sdk.ts `retuneTracing`), and answers 204 once the new setting holds (the
 * last setting's spans exported, then the heap collected whole), 409 when the process started without tracing.
 */
import { createServer, type Server } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { retuneTracing } from '../../services/kernel/tracing-sdk';

// A full collection once the setting holds: what a row left on the heap (spans held for export, promoted) is
// collected at the row's end, in its own processor time, not in a later row's.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

export function serveTracingControl(port: number): Server {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/tracing') return void res.writeHead(404).end();
      let env: Record<string, string>;
      try {
        env = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>;
      } catch {
        return void res.writeHead(400).end();
      }
      retuneTracing({ ...process.env, ...env }).then(
        (set) => {
          collect();
          res.writeHead(set ? 204 : 409).end();
        },
        (err: unknown) => res.writeHead(500).end(String(err)),
      );
    });
  });
  server.listen(port, '127.0.0.1');
  return server;
}
