/** Where a delivery of one event to one endpoint stands. */
export type DeliveryState = 'pending' | 'succeeded' | 'failed';

/** One event to send to one endpoint, tried until a 2xx or the end of the retry schedule. */
export interface Delivery {
  id: number;
  eventId: string;
  endpointId: string;
  /** Attempts made before this one. */
  attempts: number;
}

/** One try of a delivery, as the delivery log shows it. */
export interface DeliveryAttempt {
  /** The delivery's id and the attempt's number, zero-padded: attempts sort by it within one instant. */
  id: string;
  deliveryId: number;
  eventId: string;
  endpointId: string;
  /** 1 for the first try. */
  attempt: number;
  at: Date;
  /** The receiver's status code; null when it did not answer (refused, timed out, unsafe address). */
  statusCode: number | null;
  durationMs: number;
  /** Why it failed, when it did not get a 2xx. */
  error: string | null;
  /** The start of the receiver's answer, truncated to RESPONSE_BODY_MAX characters. */
  responseBody: string | null;
  succeeded: boolean;
}

/**
 * An attempt as the delivery log shows it, with when its delivery is tried next: the time this attempt scheduled the
 * retry for, while the delivery still waits for it (this is its latest attempt and it is pending); null once the
 * delivery succeeded, gave up, was dropped (its endpoint disabled or deleted), or was tried again.
 */
export interface LoggedAttempt extends DeliveryAttempt {
  nextAttemptAt: Date | null;
}

export function attemptIdOf(deliveryId: number, attempt: number): string {
  return `${deliveryId.toString().padStart(15, '0')}_${attempt.toString().padStart(3, '0')}`;
}

/** How much of a receiver's answer the delivery log keeps. */
export const RESPONSE_BODY_MAX = 1024;

/**
 * Text a receiver sent, made storable in every database: at most `max` UTF-16 code units (a surrogate pair is never
 * cut in two: the cut goes before it), each NUL and each lone surrogate replaced by U+FFFD. PostgreSQL's `text`
 * holds neither NUL nor half a pair.
 */
export function storableText(text: string, max = RESPONSE_BODY_MAX): string {
  const end = text.length > max && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end).replace(/\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
