/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned in package.json) run
 * against the real service on loopback, over the scenarios a real server can pass without the suite's
 * own fixture tools. Shared scenarios run on both protocol eras. Each run must end with exit code 0
 * and no FAILURE among its checks; the checks' ids are kept so a scenario that checked nothing fails.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFixture, type Fixture } from '../support/fixture';

const SUITE = require.resolve('@modelcontextprotocol/conformance/dist/index.js');

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

let fx: Fixture;
let out: string;
beforeAll(async () => {
  // The suite's server-stateless scenario calls three diagnostic tools by name (conformance-diagnostics.ts).
  fx = await startFixture({ homes: 60, seed: 17, env: { MCP_CONFORMANCE_TOOLS: 'true' } });
  out = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
});
afterAll(async () => {
  await fx?.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

function runSuite(scenario: string, specVersion?: string): Promise<{ code: number; output: string; checks: Check[] }> {
  const dir = mkdtempSync(join(out, `${scenario}-`));
  const args = [SUITE, 'server', '--url', `${fx.url}/mcp/public`, '--scenario', scenario, '-o', dir];
  if (specVersion) args.push('--spec-version', specVersion);
  return new Promise((resolve, reject) => {
    // The suite needs Node 22+: it runs on the Node that runs the tests (24 in CI).
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (b: Buffer) => (output += b.toString()));
    child.stderr.on('data', (b: Buffer) => (output += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const checks: Check[] = [];
      for (const run of readdirSync(dir)) checks.push(...(JSON.parse(readFileSync(join(dir, run, 'checks.json'), 'utf8')) as Check[]));
      resolve({ code: code ?? 1, output, checks });
    });
  });
}

describe('the official MCP conformance suite against POST /mcp/public', () => {
  it.each([
    ['server-initialize', undefined],
    ['ping', undefined],
    ['tools-list', '2025-11-25'],
    ['tools-list', '2026-07-28'],
    ['resources-list', '2025-11-25'],
    ['resources-list', '2026-07-28'],
    ['server-session-lifecycle', undefined],
    ['dns-rebinding-protection', '2025-11-25'],
    ['dns-rebinding-protection', '2026-07-28'],
    ['server-stateless', undefined],
    ['caching', undefined],
    ['sep-2164-resource-not-found', undefined],
    ['http-header-validation', undefined],
  ])('passes %s (%s) with no failed check', async (scenario, specVersion) => {
    const { code, output, checks } = await runSuite(scenario, specVersion);
    const failed = checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`);
    expect({ scenario, failed }).toEqual({ scenario, failed: [] });
    // A stateless server's session lifecycle is reported as INFO ("stateless"): something was checked all the same.
    expect(checks.filter((c) => c.status === 'SUCCESS' || c.status === 'INFO').length).toBeGreaterThan(0);
    if (code !== 0) throw new Error(`conformance exited ${code}:\n${output}`);
  });
});
