/**
 * Argument validation from the tools' JSON Schemas (ajv). Two compilers over the same schemas:
 * strict for the tool server's JSON, coercing for GET query strings (where every value arrives as
 * text). A reader is ajv's type guard for the tool's argument type: what passes it is that type.
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { JSONSchema } from 'json-schema-to-ts';
import { badRequest } from '../kernel/errors';
import { REFUSED_DATE_NAMES } from '../stays/refused-date-names';

export type ObjectSchema = JSONSchema & { type: 'object' };

/** Where a call's arguments come from: the tool server's JSON, or a GET's query text (coerced to the schema's types). */
export type ArgumentSource = 'json' | 'query';

/** The arguments as the handler gets them (defaults applied), or the contract's error (docs/contract.md, "Errors": unknown_parameter, invalid_parameters). */
export type ArgumentReader<I> = (raw: unknown) => I;

function makeAjv(coerce: boolean): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: true, coerceTypes: coerce ? 'array' : false, useDefaults: true });
  addFormats(ajv);
  return ajv;
}

const compilers: Partial<Record<ArgumentSource, Ajv>> = {};
const compilerFor = (from: ArgumentSource): Ajv => (compilers[from] ??= makeAjv(from === 'query'));

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

/**
 * The reader of one tool's arguments from one source, compiled on first use. `I` is the type the
 * schema describes (the tool's FromSchema of it): ajv's guard narrows what passes to it.
 */
export function argumentReader<I>(schema: ObjectSchema, from: ArgumentSource): ArgumentReader<I> {
  let check: ValidateFunction<I> | undefined;
  return (raw: unknown): I => {
    check ??= compilerFor(from).compile<I>(schema);
    const value: unknown = raw === undefined || raw === null ? {} : raw;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw badRequest('invalid_parameters', 'Arguments must be a JSON object.');
    }
    if (from === 'query') checkQueryText(value as Record<string, unknown>, schema);
    if (!check(value)) {
      const errors = check.errors ?? [];
      // Unknown-argument errors first: they are the most actionable.
      errors.sort((a, b) => Number(b.keyword === 'additionalProperties') - Number(a.keyword === 'additionalProperties'));
      const unique = [...new Set(errors.map((e) => describe(e, schema)))];
      const code = errors.some((e) => e.keyword === 'additionalProperties') ? 'unknown_parameter' : 'invalid_parameters';
      throw badRequest(code, unique.slice(0, 5).join(' '));
    }
    // ajv coerces a query string "1e400" to Infinity and then skips its range keywords on it.
    const infinite = nonFinite(value);
    if (infinite) throw badRequest('invalid_parameters', `"${infinite}" must be a finite number.`);
    return value;
  };
}

const INTEGER_TEXT = /^[+-]?\d+$/;
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/**
 * A GET query's values as text, before the schema coerces them: a value given twice for an argument that
 * takes one, or a number not written in decimal digits ("1e2", "0x1E", which JavaScript's Number reads),
 * is refused in words the caller can act on instead of coerced or described as a wrong type.
 */
function checkQueryText(args: Record<string, unknown>, schema: object): void {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  for (const [name, value] of Object.entries(args)) {
    const type = Object.hasOwn(properties, name) ? properties[name]?.type : undefined;
    const types = Array.isArray(type) ? type : [type];
    if (types.includes('array') || type === undefined) continue;
    if (Array.isArray(value)) throw badRequest('invalid_parameters', `"${name}" is given more than once; it takes one value.`);
    if (typeof value !== 'string' || types.includes('string')) continue;
    if (types.includes('integer') && !types.includes('number') && !INTEGER_TEXT.test(value.trim())) {
      throw badRequest('invalid_parameters', `"${name}" must be a whole number in decimal digits (got "${value.slice(0, 40)}").`);
    }
    if (types.includes('number') && !NUMBER_TEXT.test(value.trim())) {
      throw badRequest('invalid_parameters', `"${name}" must be a number in decimal digits (got "${value.slice(0, 40)}").`);
    }
  }
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
