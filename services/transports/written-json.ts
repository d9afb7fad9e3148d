/**
 * The JSON of an answer, written once per frozen answer. An answer kept per index generation
 * (kernel/store/generation-answers.ts) is frozen and serves every request that asks its question as
 * the same object, so the tool server writes it once: about 275 kB for a map of 250 pins, where
 * writing it took most of a kept answer's time. The string is kept beside the answer and counted in
 * the bound of the answers kept (kernel/store/answer-forms.ts). Any other value is written every time.
 * (HTTP keeps a frozen answer's bytes and ETag instead: http/caching.ts.)
 */
import { formOf, stringBytes } from '../kernel/store/answer-forms';

export const jsonOf = (value: unknown): string => formOf(value, 'json', () => JSON.stringify(value), stringBytes);
