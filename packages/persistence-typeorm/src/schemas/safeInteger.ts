import type { ValueTransformer } from 'typeorm';

/**
 * PostgreSQL returns `bigint` as a string. Convert it to a number, and refuse loudly a value that a JavaScript
 * number cannot hold exactly rather than silently lose precision.
 */
export function toSafeInteger(value: number | string | bigint): number {
  const number = Number(value);
  if (!Number.isSafeInteger(number)) throw new RangeError(`database integer ${String(value)} is beyond 2^53-1`);
  return number;
}

export const safeInteger: ValueTransformer = {
  to: (value: unknown) => value,
  from: (value: number | string | bigint | null) => (value === null ? null : toSafeInteger(value)),
};
