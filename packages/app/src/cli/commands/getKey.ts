import type { PetStore } from '@petstore/core';
import { asJson, defineCommand, exactlyOneId, parseFlags } from '../CliCommand.js';
import { keyDetails } from '../tables.js';

export const getKey = defineCommand({
  name: 'keys get',
  help: `petstore keys get ID [--json]
    One key: its settings, status, last use (at most 30 s behind), ban and rotation state. Never a secret.`,
  input(args) {
    const { values, positionals } = parseFlags(args, {});
    return { id: exactlyOneId(positionals, 'keys get'), json: values.json };
  },
  uses: async (open): Promise<Pick<PetStore, 'getApiKey'>> => ({ getApiKey: (await open.petStore()).getApiKey }),
  async run({ id, json }, { getApiKey }, io) {
    const key = await getApiKey.execute(id);
    io.out(json ? asJson(key) : keyDetails(key));
    return 0;
  },
});
