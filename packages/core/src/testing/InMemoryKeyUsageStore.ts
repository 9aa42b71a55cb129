import type { DailyUsage, KeyUsageIncrement, KeyUsageStore, UtcDay } from '../ports/KeyUsageStore.js';

export class InMemoryKeyUsageStore implements KeyUsageStore {
  /** keyId -> day -> requests */
  private readonly days = new Map<string, Map<UtcDay, number>>();
  private readonly lastUses = new Map<string, Date>();

  add(increments: readonly KeyUsageIncrement[]): Promise<void> {
    for (const { keyId, day, requests, lastUsedAt } of increments) {
      let days = this.days.get(keyId);
      if (!days) this.days.set(keyId, (days = new Map()));
      days.set(day, (days.get(day) ?? 0) + requests);
      const known = this.lastUses.get(keyId);
      if (!known || known < lastUsedAt) this.lastUses.set(keyId, new Date(lastUsedAt));
    }
    return Promise.resolve();
  }

  dailyUsage(keyId: string, from: UtcDay, to: UtcDay): Promise<DailyUsage[]> {
    const days = [...(this.days.get(keyId) ?? [])].filter(([day]) => day >= from && day <= to).sort(([a], [b]) => (a < b ? -1 : 1));
    return Promise.resolve(days.map(([day, requests]) => ({ day, requests })));
  }

  requestsOn(day: UtcDay): Promise<ReadonlyMap<string, number>> {
    const found = new Map<string, number>();
    for (const [keyId, days] of this.days) {
      const requests = days.get(day);
      if (requests !== undefined) found.set(keyId, requests);
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
