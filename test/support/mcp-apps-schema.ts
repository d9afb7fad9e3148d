/**
 * The MCP Apps protocol as the library publishes it (`@modelcontextprotocol/ext-apps/schema.json`,
 * JSON Schema 2020-12 generated from its typings), compiled with ajv: offline, a check of what the
 * service lists (tools' and resources' `_meta.ui`) and of what a widget sends its host.
 */
import { readFileSync } from 'node:fs';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';

const SCHEMA = JSON.parse(readFileSync(require.resolve('@modelcontextprotocol/ext-apps/schema.json'), 'utf8')) as {
  $id: string;
  $defs: Record<string, unknown>;
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema(SCHEMA);
const compiled = new Map<string, ValidateFunction>();

/** The names the schema defines (McpUiToolMeta, McpUiMessageRequest, …). */
export const MCP_APPS_DEFINITIONS: readonly string[] = Object.keys(SCHEMA.$defs);

/** What is wrong with `value` as the schema's `definition`: an empty list when nothing is. */
export function mcpAppsErrors(definition: string, value: unknown): string[] {
  if (!(definition in SCHEMA.$defs)) throw new Error(`The MCP Apps schema defines no ${definition}`);
  let validate = compiled.get(definition);
  if (!validate) {
    validate = ajv.getSchema(`${SCHEMA.$id}#/$defs/${definition}`)!;
    compiled.set(definition, validate);
  }
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${definition}${e.instancePath} ${e.message ?? ''}`.trim());
}
