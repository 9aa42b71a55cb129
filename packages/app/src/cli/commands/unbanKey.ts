import type { PetStore } from '@petstore/core';
import { asJson, defineCommand, exactlyOneId, parseFlags } from '../CliCommand.js';

export const unbanKey = defineCommand({
  name: 'keys unban',
  help: `petstore keys unban ID [--json]
    Lifts the key's rate-limit ban (its counts stay) in the servers' shared Redis: reads REDIS_URL (or
    REDIS_CLUSTER_NODES, or REDIS_SENTINELS and REDIS_SENTINEL_MASTER), like the servers. Without Redis each server
    keeps its bans in its own memory: exits 2 and changes nothing (use the admin API's unbanKey instead).`,
  input(args) {
    const { values, positionals } = parseFlags(args, {});
    return { id: exactlyOneId(positionals, 'keys unban'), json: values.json };
  },
  // Without Redis nothing is opened: the bans this command could lift live in each server's memory.
  uses: async (open): Promise<Pick<PetStore, 'unbanApiKey'> | null> =>
    open.config.redis === null ? null : { unbanApiKey: (await open.petStore()).unbanApiKey },
  async run({ id, json }, uses, io) {
    if (uses === null) {
      io.err(
        "error: keys unban needs the servers' Redis settings (REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS): " +
          'without Redis each server keeps its bans in its own memory, out of this ' +
          "command's reach. Lift the ban with the server's admin API (POST /admin/v1/keys/ID/unban), or let it end.",
      );
      return 2;
    }
    const { key, wasBanned } = await uses.unbanApiKey.execute(id, 'cli');
    io.out(json ? asJson(key) : wasBanned ? `Lifted the ban on ${key.id}.` : `${key.id} was not banned; nothing to lift.`);
    return 0;
  },
});
