/** The registry is the one source: every derived surface must agree with it. */
import { modelTools, TOOLS } from '../../../services/tools/registry';
import { openApiDocument } from '../../../services/docs/openapi';
import { toolsMarkdown } from '../../../services/docs/tools-markdown';
import { toolsList } from '../../../services/transports/mcp/tool-list';
import { ApiError } from '../../../services/kernel/errors';
import { argumentReader } from '../../../services/tools/validate';

const props = (schema: unknown): Record<string, unknown> => (schema as { properties?: Record<string, unknown> }).properties ?? {};

describe('tool registry', () => {
  it('has unique tool names', () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });

  it('gives every tool a title, a description, strict object input and an object output schema', () => {
    for (const t of TOOLS) {
      expect(t.title.length).toBeGreaterThan(3);
      expect(t.description.length).toBeGreaterThan(40);
      expect(t.inputSchema.type).toBe('object');
      expect((t.inputSchema as { additionalProperties?: unknown }).additionalProperties).toBe(false);
      expect(t.outputSchema.type).toBe('object');
    }
  });

  it('maps every GET parameter to an argument the tool declares (a dotted name to a property of an object argument)', () => {
    const declares = (schema: object, path: string): boolean => {
      const [head, ...rest] = path.split('.');
      const inner = props(schema)[head] as object | undefined;
      return inner !== undefined && (rest.length === 0 || declares(inner, rest.join('.')));
    };
    for (const t of TOOLS.filter((x) => x.get)) {
      const targets = [...t.get!.query, ...Object.values(t.get!.renames ?? {}), ...Object.values(t.get!.pathParams ?? {})];
      for (const arg of targets) expect([arg, declares(t.inputSchema, arg)]).toEqual([arg, true]);
      for (const param of Object.keys(t.get!.pathParams ?? {})) expect(t.get!.path).toContain(`:${param}`);
    }
  });

  it('derives one OpenAPI GET operation per routed tool, with every query parameter', () => {
    const doc = openApiDocument(TOOLS, 'http://localhost:3000') as {
      paths: Record<string, { get: { operationId?: string; parameters?: { name: string }[] } }>;
    };
    for (const t of TOOLS.filter((x) => x.get)) {
      const path = '/api/public' + t.get!.path.replace(/:([a-z_]+)/g, '{$1}');
      const op = doc.paths[path].get;
      expect(op.operationId).toBe(t.name);
      const names = (op.parameters ?? []).map((p) => p.name).sort();
      expect(names).toEqual([...Object.keys(t.get!.pathParams ?? {}), ...Object.keys(t.get!.renames ?? {}), ...t.get!.query].sort());
    }
  });

  it('marks market optional on the GET searches, its description saying what stands in for it', () => {
    type Op = { parameters: { name: string; required: boolean; description?: string }[] };
    const doc = openApiDocument(modelTools(TOOLS), 'http://localhost:3000') as { paths: Record<string, { get: Op }> };
    const market = (path: string) => doc.paths[path].get.parameters.find((p) => p.name === 'market');
    expect(market('/api/public/search')).toMatchObject({
      required: false,
      description: expect.stringMatching(/Required unless display_city or polygon is given\.$/),
    });
    expect(market('/api/public/map-search')).toMatchObject({
      required: false,
      description: expect.stringMatching(
        /Required unless display_city or sw_latitude \+ sw_longitude \+ ne_latitude \+ ne_longitude \+ zoom or polygon is given\.$/,
      ),
    });
    const polygon = doc.paths['/api/public/search'].get.parameters.find((p) => p.name === 'polygon');
    expect(polygon?.description).toMatch(/Required unless market or display_city is given\.$/);
    const city = doc.paths['/api/public/search'].get.parameters.find((p) => p.name === 'display_city');
    expect(city).toMatchObject({
      required: false,
      description: expect.stringMatching(/\(tool argument `scope\.display_city`\) Required unless market or polygon is given\.$/),
    });
  });

  it('lists every tool in tools/list and in the markdown catalog', () => {
    const listed = toolsList(TOOLS).tools.map((t) => t.name);
    expect(listed).toEqual(TOOLS.map((t) => t.name));
    const md = toolsMarkdown(TOOLS);
    for (const t of TOOLS) expect(md).toContain(`## ${t.name}`);
  });

  it('compiles every input schema with ajv', () => {
    // Every schema compiles for both sources and closes its arguments: an unknown one is the contract's error, not a crash.
    for (const tool of TOOLS) {
      for (const from of ['json', 'query'] as const) {
        expect(() => argumentReader<object>(tool.inputSchema, from)({ no_such_argument: 1 })).toThrow(ApiError);
      }
    }
  });
});
