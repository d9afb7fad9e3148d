/**
 * The MCP Inspector's CLI as a stranger's client: a separate process, speaking
 * Streamable HTTP to the running service, lists the tools and calls one. Pinned to the 0.x CLI
 * (a devDependency, so no download at test time): 1.x needs Node 22, and 0.16 and older cannot
 * reach a URL that does not end in /mcp.
 */
import { execFile } from 'node:child_process';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { modelTools, TOOLS } from '../../services/tools/registry';
import { startFixture, type Fixture } from '../support/fixture';

const run = promisify(execFile);
const CLI = require.resolve('@modelcontextprotocol/inspector-cli/build/index.js');

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture({ homes: 20 });
});

afterAll(async () => {
  await fx?.close();
});

/** Runs the inspector CLI against the service's tool server and parses its JSON output. */
async function inspector(...args: string[]): Promise<any> {
  // The CLI looks for its package.json relative to the working directory: run it from its own folder.
  const { stdout } = await run(process.execPath, [CLI, `${fx.url}/mcp/public`, '--transport', 'http', ...args], { timeout: 30_000, cwd: dirname(CLI) });
  return JSON.parse(stdout);
}

describe('the MCP Inspector CLI against POST /mcp/public', () => {
  it('lists every tool of the registry with its title and schemas', async () => {
    const listed = await inspector('--method', 'tools/list');
    const names = listed.tools.map((t: { name: string }) => t.name).sort();
    // A plain client (the Inspector declares no MCP Apps extension) is listed the model's tools, as tools.json.
    expect(names).toEqual(
      modelTools(TOOLS)
        .map((t) => t.name)
        .sort(),
    );
    for (const tool of listed.tools) {
      expect(tool.title).toEqual(expect.any(String));
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.outputSchema.type).toBe('object');
    }
  });

  it('calls a tool and gets its structured result', async () => {
    const market = (await fx.get('/api/public/markets')).body.markets[0].slug as string;
    const result = await inspector('--method', 'tools/call', '--tool-name', 'get_market_filters_tool', '--tool-arg', `market=${market}`);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent.market).toEqual({ slug: market });
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
  });

  it('gets an isError result with the error object for an unknown market', async () => {
    const result = await inspector('--method', 'tools/call', '--tool-name', 'get_market_filters_tool', '--tool-arg', 'market=atlantis');
    expect(result.isError).toBe(true);
    expect(JSON.parse(result.content[0].text)).toEqual({ error: { code: 'market_not_found', message: expect.any(String) } });
  });
});
