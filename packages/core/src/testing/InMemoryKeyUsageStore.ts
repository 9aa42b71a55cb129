import type { DailyUsage, KeyUsageIncrement, KeyUsageStore, UtcDay } from '../ports/KeyUsageStore.js';

export class InMemoryKeyUsageStore implements KeyUsageStore {
  /** keyId -> day -> counts */
  private readonly days = new Map<string, Map<UtcDay, { requests: number; limited: number }>>();
  private readonly lastUses = new Map<string, Date>();

  add(increments: readonly KeyUsageIncrement[]): Promise<void> {
    for (const { keyId, day, requests, limited, lastUsedAt } of increments) {
      let days = this.days.get(keyId);
      if (!days) this.days.set(keyId, (days = new Map()));
      const known = days.get(day) ?? { requests: 0, limited: 0 };
      days.set(day, { requests: known.requests + requests, limited: known.limited + limited });
      const lastUse = this.lastUses.get(keyId);
      if (!lastUse || lastUse < lastUsedAt) this.lastUses.set(keyId, new Date(lastUsedAt));
    }
    return Promise.resolve();
  }

  dailyUsage(keyId: string, from: UtcDay, to: UtcDay): Promise<DailyUsage[]> {
    const days = [...(this.days.get(keyId) ?? [])].filter(([day]) => day >= from && day <= to).sort(([a], [b]) => (a < b ? -1 : 1));
    return Promise.resolve(days.map(([day, counts]) => ({ day, ...counts })));
  }

  requestsOn(day: UtcDay): Promise<ReadonlyMap<string, number>> {
    const found = new Map<string, number>();
    for (const [keyId, days] of this.days) {
      const counts = days.get(day);
      if (counts !== undefined) found.set(keyId, counts.requests);
    }
    return Promise.resolve(found);
  }

  lastUsedAt(keyIds: readonly string[]): Promise<ReadonlyMap<string, Date>> {
    const found = new Map<string, Date>();
    for (const id of keyIds) {
      const at = this.lastUses.get(id);
      if (at) found.set(id, new Date(at));
    }
    return Promise.resolve(found);
  }

  purgeBefore(before: UtcDay): Promise<number> {
    let purged = 0;
    for (const days of this.days.values()) {
      for (const day of days.keys()) {
        if (day < before) {
          days.delete(day);
          purged++;
        }
      }
    }
    return Promise.resolve(purged);
  }
}
