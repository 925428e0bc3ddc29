/** Shared step of every builder: validate, throw on any violation, never truncate. */
import type { z } from 'zod';
import { parseWith } from './content.js';
import { MessageValidationError } from './errors.js';

/** Parses `value` with `schema`; throws {@link MessageValidationError} listing every issue. */
export function build<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = parseWith(schema, value);
  if (result.status === 'invalid') throw new MessageValidationError(result.issues);
  return result.value;
}

/** `{ [key]: value }` when value is defined, `{}` otherwise (for optional fields). */
export function opt<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
