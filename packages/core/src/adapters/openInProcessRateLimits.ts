import { countedWindows } from '../access/countedWindows.js';
import { utcDayOf, dayNumberOf } from '../access/UtcDay.js';
import type { BanStore } from '../ports/BanStore.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyUsageStore } from '../ports/KeyUsageStore.js';
import { InMemoryRateLimitStore, type InMemoryRateLimitOptions } from './InMemoryRateLimitStore.js';

export interface InProcessRateLimitPorts {
  /** Where the keys' requests per day are flushed (KeyUsageRecorder). */
  usage: KeyUsageStore;
  bans: BanStore;
  clock: Clock;
  /** Hears a ban or unban that could not be written (the request was answered; the ban holds in this process). */
  onWriteError: (error: unknown) => void;
}

/**
 * The rate-limit store of a single instance (no Redis), made to survive a restart: each key starts the current UTC
 * day from the requests the usage store holds for it (what was flushed: everything after a clean stop, all but the
 * last flush interval after a crash), and every ban is written to the ban store as it starts and ends, and read
 * back here. Minute windows and strikes start afresh.
 */
export async function openInProcessRateLimits(
  { usage, bans, clock, onWriteError }: InProcessRateLimitPorts,
  options: Omit<InMemoryRateLimitOptions, 'onBanChange'> = {},
): Promise<InMemoryRateLimitStore> {
  const store = new InMemoryRateLimitStore({
    ...options,
    onBanChange: (subject, bannedUntil) =>
      void (bannedUntil === null ? bans.remove(subject) : bans.save({ subject, bannedUntil })).catch(onWriteError),
  });
  const now = clock.now().getTime();
  const [today] = countedWindows(now, { day: 0 });
  const [counts, inForce] = await Promise.all([usage.requestsOn(utcDayOf(dayNumberOf(now))), bans.inForce(now)]);
  // The subject AdmitRequest counts a key's requests under.
  for (const [keyId, count] of counts) store.restoreCount(`key:${keyId}`, today!, count);
  for (const ban of inForce) store.restoreBan(ban.subject, ban.bannedUntil);
  return store;
}
