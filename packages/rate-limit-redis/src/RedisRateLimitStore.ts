import { readFileSync } from 'node:fs';
import {
  ServiceUnavailableError,
  type ConsumeRequest,
  type ConsumeResult,
  type CountedWindow,
  type RateLimitStore,
  type ReadRequest,
  type ReleaseRequest,
  type UsageReading,
} from '@petstore/core';
import { Cluster } from 'ioredis';
import { commandDeadlineFor } from './commandDeadline.js';
import type { RedisClient } from './createRedisClient.js';
import { scriptCallsPerTurn, type ScriptCall } from './scriptCallsPerTurn.js';
import { withoutSecrets } from './withoutSecrets.js';

// The Lua scripts sit beside this module: in src for the tests, copied into dist by the build.
const script = (name: string) => readFileSync(new URL(`./${name}`, import.meta.url), 'utf8');

type ScriptReply = [outcome: 'admitted' | 'rejected' | 'banned' | 'late', instant: number, ...counts: number[]];

type RedisWithConsume = RedisClient & {
  petstoreConsume(numberOfKeys: number, ...args: (string | number)[]): Promise<ScriptReply>;
  petstoreRead(numberOfKeys: number, ...args: (string | number)[]): Promise<[bannedUntil: number, ...counts: number[]]>;
  petstoreRelease(numberOfKeys: number, ...keys: string[]): Promise<null>;
};

/**
 * RateLimitStore on Redis: both windows and the ban bookkeeping in one Lua script (atomic across every server
 * instance), keys that expire with their window, so memory stays bounded by the subjects active in a day.
 * Fails closed: when Redis cannot answer, `consume` throws ServiceUnavailableError and requests get 503.
 * Each script carries a deadline that Redis checks against its own clock before touching anything, and the client
 * gives up only after that deadline plus a clock skew margin: a request that got 503 spent no quota and earned no
 * strike, even when a stalled Redis runs the queued script after the client gave up. `onUnavailable` hears the cause
 * of every such failure (a stalled Redis times commands out without a connection error for the client to report).
 * On a Redis Cluster every script and command names the keys of one subject only, which share one hash slot.
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: RedisWithConsume;
  private readonly deadlineMs: number;
  /** One pipeline per turn of the event loop for every request's script; on a Cluster, each sent alone. */
  private readonly consumeScript: (call: ScriptCall) => Promise<ScriptReply>;

  constructor(
    redis: RedisClient,
    private readonly keyPrefix = 'petstore:rl',
    private readonly onUnavailable: (cause: unknown) => void = () => undefined,
  ) {
    redis.defineCommand('petstoreConsume', { lua: script('consume.lua') });
    redis.defineCommand('petstoreRead', { lua: script('read.lua') });
    redis.defineCommand('petstoreRelease', { lua: script('release.lua') });
    this.redis = redis as RedisWithConsume;
    this.consumeScript = redis instanceof Cluster ? (call) => this.redis.petstoreConsume(...call) : scriptCallsPerTurn(redis, 'petstoreConsume');
    this.deadlineMs = commandDeadlineFor(redis instanceof Cluster ? redis.options.redisOptions?.commandTimeout : redis.options.commandTimeout);
  }

  /** The error every operation throws when Redis cannot answer, once `onUnavailable` has heard the cause. */
  private unavailable(cause: unknown): ServiceUnavailableError {
    this.onUnavailable(withoutSecrets(cause));
    return new ServiceUnavailableError('rate-limit store', 5, { cause });
  }

  /** The window counters, then the ban record. The braces make every key of a subject hash to one Redis Cluster slot. */
  private keysOf(subject: string, windows: readonly CountedWindow[]): string[] {
    const base = `${this.keyPrefix}:{${subject}}`;
    return [...windows.map((w) => `${base}:${w.name}:${w.start}`), this.banKeyOf(subject)];
  }

  /** The subject's strike and ban record (one hash). */
  private banKeyOf(subject: string): string {
    return `${this.keyPrefix}:{${subject}}:ban`;
  }

  async consume({ subject, now, windows, ban }: ConsumeRequest): Promise<ConsumeResult> {
    const keys = this.keysOf(subject, windows);
    // The deadline is on this process's real clock (not the domain clock): it bounds a transport, not a rule.
    const deadline = Date.now() + this.deadlineMs;
    const args = [
      now,
      windows.length,
      ...windows.flatMap((w) => [w.limit, w.resetAt]),
      ban.strikes,
      ban.durationSeconds * 1000,
      ban.strikeIntervalSeconds * 1000,
      deadline,
    ];
    let reply: ScriptReply;
    try {
      reply = await this.consumeScript([keys.length, ...keys, ...args]);
    } catch (error) {
      throw this.unavailable(error);
    }
    const [outcome, instant, ...counts] = reply;
    switch (outcome) {
      case 'late':
        throw this.unavailable(new Error('Redis started the script after its deadline: nothing was counted'));
      case 'admitted':
        return { outcome, counts };
      case 'rejected':
        return { outcome, counts, retryAt: instant };
      case 'banned':
        return { outcome, counts, bannedUntil: instant };
    }
  }

  async read({ subject, now, windows }: ReadRequest): Promise<UsageReading> {
    const keys = this.keysOf(subject, windows);
    try {
      const [bannedUntil, ...counts] = await this.redis.petstoreRead(keys.length, ...keys, now);
      return { counts, bannedUntil: bannedUntil > 0 ? bannedUntil : null };
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  async release({ subject, now, windows }: ReleaseRequest): Promise<void> {
    // A window that has ended is left alone: its counter may outlive it by the expiry margin, but counts no longer.
    const open = windows.filter((window) => window.resetAt > now);
    if (open.length === 0) return;
    try {
      await this.redis.petstoreRelease(open.length, ...this.keysOf(subject, open).slice(0, open.length));
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** Deletes the strike and ban record: one command, atomic on its own, and harmless if Redis runs it late. */
  async unban(subject: string): Promise<void> {
    try {
      await this.redis.del(this.banKeyOf(subject));
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** Throws ServiceUnavailableError unless Redis answers (for readiness checks). */
  async ping(): Promise<void> {
    try {
      await this.redis.ping();
    } catch (error) {
      throw this.unavailable(error);
    }
  }
}
