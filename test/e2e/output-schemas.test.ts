/**
 * Every tool's outputSchema describes every field its handler returns: real results, from calls
 * with sampled arguments on generated homes, over the tool server (structuredContent) and the GET
 * API, are validated with ajv against the schema made strict (no property it does not name). A field
 * added to a handler and not to its schema fails here.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { startFixture, type Fixture } from '../support/fixture';
import { TOOL_SAMPLES, toolsWithoutSamples, worldSamples, type SampleSource } from '../support/tool-samples';
import { TOOLS } from '../../services/tools/registry';
import type { Tool } from '../../services/tools/tool';

let fx: Fixture;
let source: SampleSource;

beforeAll(async () => {
  fx = await startFixture({ homes: 80 });
  source = await worldSamples(fx, { homes: 40 });
});

afterAll(async () => {
  await fx?.close();
});

/** The schema with `additionalProperties: false` on every object that lists its properties. */
function strict(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strict);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([p, s]) => [p, strict(s)])) : strict(v);
  }
  if ('properties' in out && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
const validators = new Map(TOOLS.map((t) => [t.name, ajv.compile(strict(t.outputSchema) as object)]));

function problems(tool: Tool, data: unknown): string[] {
  const validate = validators.get(tool.name)!;
  return validate(data) ? [] : (validate.errors ?? []).map((e) => `${tool.name}${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`);
}

/** The GET request for these tool arguments, from the tool's own route definition. */
function getPath(tool: Tool, args: Record<string, unknown>): string | null {
  if (!tool.get) return null;
  const rest = { ...args };
  let path = tool.get.path;
  for (const [param, arg] of Object.entries(tool.get.pathParams ?? {})) {
    path = path.replace(`:${param}`, encodeURIComponent(String(rest[arg])));
    delete rest[arg];
  }
  const renamed = Object.fromEntries(Object.entries(tool.get.renames ?? {}).map(([q, arg]) => [arg, q]));
  const query = new URLSearchParams(Object.entries(rest).map(([k, v]): [string, string] => [renamed[k] ?? k, String(v)]));
  return `/api/public${path}${query.size ? `?${query}` : ''}`;
}

describe('tool outputs against their outputSchema', () => {
  it('has sample arguments for every tool', () => {
    expect(toolsWithoutSamples(TOOLS.map((t) => t.name))).toEqual([]);
  });

  it('holds for real results of every tool, over the tool server and the GET API', async () => {
    const client = await fx.mcp();
    const found: string[] = [];
    let checked = 0;
    for (const tool of TOOLS) {
      for (let round = 0; round < 12; round++) {
        const args = TOOL_SAMPLES[tool.name](source);
        const result = await client.callTool({ name: tool.name, arguments: args });
        if (!result.isError) {
          found.push(...problems(tool, result.structuredContent));
          checked += 1;
        }
        const path = getPath(tool, args);
        if (path) {
          const res = await fx.get(path);
          if (res.status === 200) {
            found.push(...problems(tool, res.body));
            checked += 1;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(TOOLS.length * 6);
    expect([...new Set(found)]).toEqual([]);
  });

  it('fails for a field the schema does not name', () => {
    const tool = TOOLS.find((t) => t.name === 'get_flex_options_tool')!;
    const sample = { home_slug: 'a', available_tiers: [], eligible_for_flexible_stays: false, minimum_nightly_stay: 30, extra: 1 };
    expect(problems(tool, sample).join(' ')).toMatch(/additional properties/);
  });
});
