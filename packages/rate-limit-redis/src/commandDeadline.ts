/**
 * How far Redis's clock may be from ours, plus the time a reply takes to come back: a script that Redis starts
 * before its deadline (on Redis's clock) has answered before the client's timeout, which is this much later.
 */
const CLOCK_SKEW_MARGIN_MS = 1_000;

/** How long after it is sent Redis may still start a script: its client times out this plus the margin later. */
const DEFAULT_COMMAND_DEADLINE_MS = 1_000;

export const DEFAULT_COMMAND_TIMEOUT_MS = DEFAULT_COMMAND_DEADLINE_MS + CLOCK_SKEW_MARGIN_MS;

/**
 * The deadline budget that fits a client's command timeout: a command that Redis starts late (it stalled with the
 * command queued on the connection) is refused by Redis itself, so a timed-out command is known to have done nothing.
 */
export function commandDeadlineFor(commandTimeoutMs: number | undefined): number {
  if (commandTimeoutMs === undefined) return DEFAULT_COMMAND_DEADLINE_MS;
  if (commandTimeoutMs <= CLOCK_SKEW_MARGIN_MS) {
    throw new Error(`the Redis client's commandTimeout (${commandTimeoutMs} ms) must exceed the clock skew margin (${CLOCK_SKEW_MARGIN_MS} ms)`);
  }
  return commandTimeoutMs - CLOCK_SKEW_MARGIN_MS;
}
