/**
 * The forms a frozen answer is served in (its JSON for the tool server, its bytes and ETag for GET, its
 * bytes compressed per encoding), each made once and kept beside the answer for as long as it lives. The
 * cache that keeps the answer (./generation-answers.ts) counts their bytes and is told when a form is
 * added, so its bound is what the answer really holds. A value that is not frozen keeps no form: each is
 * made every time it is asked.
 */

interface Forms {
  readonly made: Map<string, unknown>;
  /** The bytes of the forms made so far (a form made asynchronously counts once it is). */
  bytes: number;
  /** Told when a form's bytes are counted: the cache keeping the answer counts it again. */
  grew?: () => void;
}

const forms = new WeakMap<object, Forms>();

function formsOf(answer: object): Forms {
  let f = forms.get(answer);
  if (f === undefined) {
    f = { made: new Map(), bytes: 0 };
    forms.set(answer, f);
  }
  return f;
}

function count(f: Forms, bytes: number): void {
  f.bytes += bytes;
  f.grew?.();
}

const isThenable = (v: unknown): v is PromiseLike<never> => typeof (v as { then?: unknown } | null)?.then === 'function';

/**
 * The form `name` of `value`, made by `make` the first time it is asked of a frozen value and kept beside
 * it; `bytesOf` says what the form holds. A form that is a promise counts once it resolves, and is made
 * again if it fails.
 */
export function formOf<F>(value: unknown, name: string, make: () => F, bytesOf: (form: Awaited<F>) => number): F {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return make();
  const f = formsOf(value);
  if (f.made.has(name)) return f.made.get(name) as F;
  const form = make();
  f.made.set(name, form);
  // A thenable, not `instanceof Promise`: node's promises may come from another realm than this module's.
  if (isThenable(form)) {
    form.then(
      (done: Awaited<F>) => count(f, bytesOf(done)),
      () => f.made.delete(name),
    );
  } else {
    count(f, bytesOf(form as Awaited<F>));
  }
  return form;
}

/** The bytes of the forms kept beside `answer` so far. */
export const formBytes = (answer: object): number => forms.get(answer)?.bytes ?? 0;

/** Calls `grew` each time a form of `answer` is counted (one watcher an answer: the cache keeping it). */
export function watchForms(answer: object, grew: () => void): void {
  formsOf(answer).grew = grew;
}

/** V8's header of a string, and of an object holding a buffer: what a form holds beyond its characters or bytes. */
const HEADER_BYTES = 96;

/** The bytes a string holds: one a character when every one is Latin-1 (V8's one-byte strings), else two. */
export const stringBytes = (s: string): number => HEADER_BYTES + s.length * (/[\u0100-\uffff]/.test(s) ? 2 : 1);

/** The bytes a buffer holds, outside the heap, and its object. */
export const bufferBytes = (b: Uint8Array): number => HEADER_BYTES + b.byteLength;
