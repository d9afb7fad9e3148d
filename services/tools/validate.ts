/**
 * Argument validation from the tools' JSON Schemas (ajv). Two compilers over the same schemas:
 * strict for the tool server, coercing for GET query strings (where every value arrives as text).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { badRequest } from '../kernel/errors';
import { REFUSED_DATE_NAMES } from '../stays/refused-date-names';
import type { AnyTool } from './tool';

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: true, coerceTypes: coerce ? 'array' : false, useDefaults: true });
  addFormats(ajv);
  return ajv;
}

export type Validator = (args: unknown) => Record<string, unknown>;

/** The schema's own description of a top-level argument: what to send instead. */
function hint(schema: object, arg: string): string {
  const properties = (schema as { properties?: Record<string, { description?: string }> }).properties ?? {};
  const d = Object.hasOwn(properties, arg) ? properties[arg]?.description : undefined;
  return d ? ` ${d}` : '';
}

function describe(err: ErrorObject, schema: object): string {
  const where = err.instancePath ? err.instancePath.slice(1).replace(/\//g, '.') : '';
  switch (err.keyword) {
    case 'additionalProperties': {
      const extra = String((err.params as { additionalProperty: string }).additionalProperty);
      const full = where ? `${where}.${extra}` : extra;
      // Own keys only: an argument named `constructor` is just unknown (no Object.prototype member in a message).
      const better = Object.hasOwn(REFUSED_DATE_NAMES, extra) ? REFUSED_DATE_NAMES[extra] : undefined;
      return better ? `Unknown argument "${full}": dates are passed as ${better} (YYYY-MM-DD).` : `Unknown argument "${full}".`;
    }
    case 'required': {
      const missing = String((err.params as { missingProperty: string }).missingProperty);
      return `Missing required argument "${(where ? where + '.' : '') + missing}".${where ? '' : hint(schema, missing)}`;
    }
    case 'type':
      return `"${where || 'arguments'}" ${err.message ?? 'is invalid'}.${where.includes('.') ? '' : hint(schema, where)}`;
    case 'enum':
      return `"${where}" must be one of: ${((err.params as { allowedValues: unknown[] }).allowedValues ?? []).join(', ')}.`;
    default:
      return `"${where || 'arguments'}" ${err.message ?? 'is invalid'}.`;
  }
}

function compile(ajv: Ajv, tool: AnyTool): Validator {
  const fn: ValidateFunction = ajv.compile(tool.inputSchema as object);
  return (args: unknown) => {
    const value = args === undefined || args === null ? {} : args;
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw badRequest('invalid_parameters', 'Arguments must be a JSON object.');
    }
    if (!fn(value)) {
      const errors = fn.errors ?? [];
      // Unknown-argument errors first: they are the most actionable.
      errors.sort((a, b) => Number(b.keyword === 'additionalProperties') - Number(a.keyword === 'additionalProperties'));
      const unique = [...new Set(errors.map((e) => describe(e, tool.inputSchema)))];
      const code = errors.some((e) => e.keyword === 'additionalProperties') ? 'unknown_parameter' : 'invalid_parameters';
      throw badRequest(code, unique.slice(0, 5).join(' '));
    }
    // ajv coerces a query string "1e400" to Infinity and then skips its range keywords on it.
    const infinite = nonFinite(value);
    if (infinite) throw badRequest('invalid_parameters', `"${infinite}" must be a finite number.`);
    return value as Record<string, unknown>;
  };
}

/** The path of the first number that is not finite (NaN, ±Infinity), or null. */
function nonFinite(value: unknown, path = ''): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path || 'arguments';
  if (value === null || typeof value !== 'object') return null;
  for (const [k, v] of Object.entries(value)) {
    const found = nonFinite(v, path ? `${path}.${k}` : k);
    if (found) return found;
  }
  return null;
}

export interface Validators {
  strict: Map<string, Validator>;
  coercing: Map<string, Validator>;
}

export function buildValidators(tools: readonly AnyTool[]): Validators {
  const strictAjv = makeAjv(false);
  const coercingAjv = makeAjv(true);
  return {
    strict: new Map(tools.map((t) => [t.name, compile(strictAjv, t)])),
    coercing: new Map(tools.map((t) => [t.name, compile(coercingAjv, t)])),
  };
}
