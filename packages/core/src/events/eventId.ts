import { randomBytes } from 'node:crypto';

let sequence = 0;

/**
 * `evt_` and 28 hex digits: sorts as `at` does, then in the order of creation within this process, then at random
 * across processes.
 */
export function generateEventId(at: Date): string {
  return `evt_${at.getTime().toString(16).padStart(12, '0')}${eventIdSuffix()}`;
}

/**
 * The 16 hex digits of an event id after its time: the order of creation within this process, then at random. For
 * an adapter that dates an event in its database as it commits: the id is then `evt_`, the time in milliseconds as
 * 12 hex digits, and this (in SQL: `'evt_' || lpad(to_hex(at_ms), 12, '0') || suffix`).
 */
export function eventIdSuffix(): string {
  sequence = (sequence + 1) % 0x10000;
  return `${sequence.toString(16).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
}

/** Whether `text` has the shape of an id `generateEventId` makes. */
export function isEventId(text: unknown): text is string {
  return typeof text === 'string' && /^evt_[0-9a-f]{28}$/.test(text);
}
