import type { PetStore } from '@petstore/core';
import { asJson, defineCommand, exactlyOneId, parseFlags } from '../CliCommand.js';
import { daysFlag } from '../flags.js';
import { usageTable } from '../tables.js';

const DEFAULT_USAGE_DAYS = 30;

export const keyUsage = defineCommand({
  name: 'keys usage',
  help: `petstore keys usage ID [--days N] [--json]
    The key's plan, each window's limit, use, remaining and reset, and its ban, counting nothing; then its last use
    and its requests per UTC day over the last N days (default ${DEFAULT_USAGE_DAYS}). Reads REDIS_URL (or
    REDIS_CLUSTER_NODES, or REDIS_SENTINELS and REDIS_SENTINEL_MASTER), like the servers: without Redis each server
    counts in its own memory.`,
  input(args) {
    const { values, positionals } = parseFlags(args, { days: { type: 'string' } });
    return { id: exactlyOneId(positionals, 'keys usage'), days: daysFlag(values.days, DEFAULT_USAGE_DAYS), json: values.json };
  },
  async uses(open): Promise<Pick<PetStore, 'getRateLimitUsage' | 'getApiKeyUsage' | 'clock'> & { withoutRedis: boolean }> {
    const { getRateLimitUsage, getApiKeyUsage, clock } = await open.petStore();
    return { getRateLimitUsage, getApiKeyUsage, clock, withoutRedis: open.config.redis === null };
  },
  async run({ id, days, json }, { getRateLimitUsage, getApiKeyUsage, clock, withoutRedis }, io) {
    const from = new Date(clock.now().getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
    const [usage, history] = await Promise.all([getRateLimitUsage.execute(id), getApiKeyUsage.execute(id, { from })]);
    if (withoutRedis) {
      io.err(
        'warning: none of REDIS_URL, REDIS_CLUSTER_NODES and REDIS_SENTINELS is set: without Redis each server counts in its own memory, which this command cannot see.',
      );
    }
    const report = {
      keyId: usage.keyId,
      plan: usage.plan,
      windows: usage.windows,
      bannedUntil: usage.bannedUntil,
      lastUsedAt: history.lastUsedAt,
      days: history.days,
    };
    io.out(json ? asJson(report) : usageTable(usage, history));
    return 0;
  },
});
