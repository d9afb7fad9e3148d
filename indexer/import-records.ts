/**
 * Ops import of canonical records from NDJSON: one `{ "kind": "market"|"property"|"home",
 * "record": {…} }` per line. Each line is validated with the records' JSON Schemas plus the rules a
 * schema cannot say (contiguous calendars, references); a bad line is reported with its number
 * and reason, and every valid line is kept.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import type { HomeRecord, MarketRecord, PropertyRecord } from '../services/kernel/inventory/records';
import { homeRecordSchema, marketRecordSchema, propertyRecordSchema } from '../services/kernel/inventory/schemas';
import { parseIsoDate } from '../services/kernel/engine/dates';

export type ImportKind = 'market' | 'property' | 'home';

export type ParsedLine =
  | { ok: true; kind: 'market'; record: Omit<MarketRecord, 'updated_at'> }
  | { ok: true; kind: 'property'; record: Omit<PropertyRecord, 'created_at' | 'updated_at'> }
  | { ok: true; kind: 'home'; record: Omit<HomeRecord, 'created_at' | 'updated_at' | 'deleted_at'> }
  | { ok: false; reason: string };

const ajv = new Ajv({ allErrors: false, strict: false });
const validators: Record<ImportKind, ValidateFunction> = {
  market: ajv.compile(marketRecordSchema),
  property: ajv.compile(propertyRecordSchema),
  home: ajv.compile(homeRecordSchema),
};

function schemaError(fn: ValidateFunction): string {
  const e = fn.errors?.[0];
  if (!e) return 'invalid record';
  const where = e.instancePath ? `record${e.instancePath.replace(/\//g, '.')}` : 'record';
  const extra = e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty: string }).additionalProperty)})` : '';
  return `${where} ${e.message ?? 'is invalid'}${extra}`;
}

/** Rules beyond the schema: real dates, ordered and contiguous calendar segments. */
export function calendarProblem(home: Pick<HomeRecord, 'calendar' | 'available_from' | 'must_vacate_by'>): string | null {
  const dates = [home.available_from, home.must_vacate_by].filter((d): d is string => d !== null);
  for (const d of dates) if (!parseIsoDate(d)) return `${d} is not a real calendar date`;
  const cal = home.calendar;
  for (let i = 0; i < cal.length; i += 1) {
    const r = cal[i];
    if (!parseIsoDate(r.start_date) || (r.end_date !== null && !parseIsoDate(r.end_date))) {
      return `calendar[${i}] has a date that does not exist`;
    }
    if (r.end_date !== null && r.end_date <= r.start_date) return `calendar[${i}] ends on or before it starts`;
    if (r.end_date === null && i !== cal.length - 1) return `calendar[${i}] is open-ended but is not the last segment`;
    if (i > 0 && cal[i - 1].end_date !== r.start_date) return `calendar[${i}] does not start where calendar[${i - 1}] ends`;
  }
  return null;
}

export function parseImportLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { ok: false, reason: 'not a JSON object' };
  const { kind, record, ...rest } = value as { kind?: unknown; record?: unknown };
  if (Object.keys(rest).length > 0) return { ok: false, reason: `unknown key(s): ${Object.keys(rest).join(', ')}` };
  if (kind !== 'market' && kind !== 'property' && kind !== 'home') {
    return { ok: false, reason: 'kind must be "market", "property" or "home"' };
  }
  const validate = validators[kind];
  if (!validate(record)) return { ok: false, reason: schemaError(validate) };
  if (kind === 'market') {
    const m = record as MarketRecord;
    if (m._id !== m.slug) return { ok: false, reason: 'record._id must equal record.slug for a market' };
    return { ok: true, kind, record: m };
  }
  if (kind === 'home') {
    const problem = calendarProblem(record as HomeRecord);
    if (problem) return { ok: false, reason: problem };
    return { ok: true, kind, record: record as HomeRecord };
  }
  return { ok: true, kind, record: record as PropertyRecord };
}
