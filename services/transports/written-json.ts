/**
 * The JSON of an answer, written once per frozen answer. An answer kept per index generation
 * (kernel/store/generation-answers.ts) is frozen and serves every request that asks its question as
 * the same object, so the tool server writes it once: about 275 kB for a map of 250 pins, where
 * writing it took most of a kept answer's time. Any other value is written every time. (HTTP keeps
 * a frozen answer's bytes and ETag instead: http/caching.ts.)
 */
const written = new WeakMap<object, string>();

export function jsonOf(value: unknown): string {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  let json = written.get(value);
  if (json === undefined) {
    json = JSON.stringify(value);
    written.set(value, json);
  }
  return json;
}
