import type { PetStore } from '@petstore/core';
import { asJson, defineCommand, exactlyOneId, parseFlags } from '../CliCommand.js';

export const revokeKey = defineCommand({
  name: 'keys revoke',
  help: `petstore keys revoke ID [--json]
    Revokes a key for good: running servers refuse it within KEY_CACHE_TTL_MS (2 s by default).`,
  input(args) {
    const { values, positionals } = parseFlags(args, {});
    return { id: exactlyOneId(positionals, 'keys revoke'), json: values.json };
  },
  uses: async (open): Promise<Pick<PetStore, 'revokeApiKey'>> => ({ revokeApiKey: (await open.petStore()).revokeApiKey }),
  async run({ id, json }, { revokeApiKey }, io) {
    const { key, alreadyRevoked } = await revokeApiKey.execute(id, 'cli');
    if (alreadyRevoked) {
      io.err(`error: ${key.id} was already revoked at ${key.revokedAt!}; nothing changed.`);
      return 1;
    }
    io.out(json ? asJson(key) : `Revoked ${key.id} at ${key.revokedAt!}.`);
    return 0;
  },
});
