import type { ApiKey } from '../access/ApiKey.js';
import { toKeyView, type KeyView } from '../access/KeyView.js';
import type { Clock } from '../ports/Clock.js';
import type { KeyUsageStore } from '../ports/KeyUsageStore.js';
import type { RateLimitStore } from '../ports/RateLimitStore.js';

/** Builds the views the admin use cases answer with: each key with its last use and any ban in force. */
export class KeyViews {
  constructor(
    private readonly usage: KeyUsageStore,
    private readonly rateLimits: RateLimitStore,
    private readonly clock: Clock,
  ) {}

  async of(keys: readonly ApiKey[]): Promise<KeyView[]> {
    const now = this.clock.now().getTime();
    const [lastUses, readings] = await Promise.all([
      this.usage.lastUsedAt(keys.map((key) => key.id)),
      Promise.all(keys.map((key) => this.rateLimits.read({ subject: `key:${key.id}`, now, windows: [] }))),
    ]);
    return keys.map((key, i) => toKeyView(key, { lastUsedAt: lastUses.get(key.id) ?? null, bannedUntil: readings[i]!.bannedUntil }, now));
  }

  async one(key: ApiKey): Promise<KeyView> {
    const [view] = await this.of([key]);
    return view!;
  }
}
