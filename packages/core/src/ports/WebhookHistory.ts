/** How many rows one purge deleted, of each kind. */
export interface PurgedHistory {
  events: number;
  deliveries: number;
  attempts: number;
}

/**
 * What the changes and their webhooks leave behind: the events, their deliveries and the deliveries' attempts. Kept
 * for the retention, then deleted a batch at a time, so that no statement holds the database for long.
 */
export interface WebhookHistory {
  /**
   * Deletes at most `limit` rows of each kind older than `before`: attempts made before it; deliveries that ended
   * (succeeded or failed) and were last claimed before it; events recorded before it that were dispatched and have
   * no pending delivery (an event still owed to an endpoint is kept, whatever its age). Several callers may purge at
   * once (several instances): each row is deleted once, and none waits for another's.
   */
  purge(before: Date, limit: number): Promise<PurgedHistory>;
}
