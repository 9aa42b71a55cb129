import type { BanStore, SavedBan } from '../ports/BanStore.js';

export class InMemoryBanStore implements BanStore {
  private readonly bans = new Map<string, number>();

  save({ subject, bannedUntil }: SavedBan): Promise<void> {
    this.bans.set(subject, bannedUntil);
    return Promise.resolve();
  }

  remove(subject: string): Promise<void> {
    this.bans.delete(subject);
    return Promise.resolve();
  }

  inForce(now: number): Promise<SavedBan[]> {
    return Promise.resolve([...this.bans].filter(([, bannedUntil]) => bannedUntil > now).map(([subject, bannedUntil]) => ({ subject, bannedUntil })));
  }
}
