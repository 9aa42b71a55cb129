import { limitsOf } from '../access/ApiKey.js';
import { countedWindows } from '../access/countedWindows.js';
import { bindingWindow, type RateLimitState } from '../access/RateLimitState.js';
import type { RateLimitUsage, WindowUsage } from '../access/RateLimitUsage.js';
import { NotFoundError } from '../errors/NotFoundError.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyStore } from '../ports/KeyStore.js';
import type { RateLimitStore } from '../ports/RateLimitStore.js';

/**
 * A key's plan, each window's limit, use, remaining and reset, and its ban: read from the RateLimitStore without
 * counting a request or a strike. Throws NotFoundError for an unknown key id.
 */
export class GetRateLimitUsage {
  constructor(
    private readonly keys: KeyStore,
    private readonly store: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  async execute(keyId: string): Promise<RateLimitUsage> {
    const key = await this.keys.findById(keyId);
    if (!key) throw new NotFoundError(`No API key with id ${keyId}.`);
    const { perMinute, perDay } = limitsOf(key);
    const now = this.clock.now().getTime();
    const windows = countedWindows(now, { minute: perMinute, day: perDay });
    const reading = await this.store.read({ subject: `key:${key.id}`, now, windows });

    const usage: WindowUsage[] = windows.map((window, i) => {
      const used = Math.min(window.limit, reading.counts[i] ?? 0);
      return { name: window.name, limit: window.limit, used, remaining: window.limit - used, reset: window.resetAt / 1000 };
    });
    const binding = bindingWindow(usage);
    const bannedUntil = reading.bannedUntil === null ? null : Math.ceil(reading.bannedUntil / 1000);
    const state: RateLimitState =
      bannedUntil === null
        ? { limit: binding.limit, remaining: binding.remaining, reset: binding.reset, windows: usage }
        : { limit: binding.limit, remaining: 0, reset: bannedUntil, windows: usage };
    return { keyId: key.id, plan: key.plan, windows: usage, bannedUntil, state };
  }
}
