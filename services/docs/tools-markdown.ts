/** GET /api/public/tools: a markdown catalog of every tool, derived from the registry. */
import type { Tool } from '../tools/tool';

type Prop = { type?: string | string[]; description?: string; enum?: readonly unknown[] };

function argumentRows(tool: Tool): string[] {
  const schema = tool.inputSchema as { properties?: Record<string, Prop>; required?: string[] };
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const type = Array.isArray(p.type) ? p.type.join(' | ') : (p.type ?? 'object');
    const values = p.enum ? ` One of: ${p.enum.map((v) => `\`${String(v)}\``).join(', ')}.` : '';
    const desc = `${p.description ?? ''}${values}`.replace(/\|/g, '\\|').replace(/\n/g, ' ');
    return `| \`${name}\` | ${type} | ${required.has(name) ? 'yes' : 'no'} | ${desc} |`;
  });
}

export function toolsMarkdown(tools: readonly Tool[]): string {
  const lines = [
    '# Tools',
    '',
    'Tool server: `POST /mcp/public` (MCP, JSON-RPC over Streamable HTTP, stateless, no authentication).',
    'The same list as JSON: `GET /api/public/tools.json`.',
    '',
  ];
  for (const tool of tools) {
    const a = tool.annotations;
    lines.push(`## ${tool.name}`, '', `**${tool.title}**`, '', tool.description, '');
    lines.push(
      `- Read-only: ${a.readOnlyHint ? 'yes' : 'no'}; destructive: ${a.destructiveHint ? 'yes' : 'no'}; idempotent: ${a.idempotentHint ? 'yes' : 'no'}`,
    );
    lines.push(tool.get ? `- GET equivalent: \`/api/public${tool.get.path.replace(/:([a-z_]+)/g, '{$1}')}\`` : '- GET equivalent: none');
    const rows = argumentRows(tool);
    lines.push('');
    if (rows.length === 0) lines.push('No arguments.');
    else lines.push('| Argument | Type | Required | Description |', '|---|---|---|---|', ...rows);
    lines.push('');
  }
  return lines.join('\n');
}
