import type { PetStore } from '@petstore/core';
import { asJson, defineCommand, noPositionals, parseFlags } from '../CliCommand.js';
import { pageLimitFlag } from '../flags.js';
import { keyTable } from '../tables.js';

export const listKeys = defineCommand({
  name: 'keys list',
  help: `petstore keys list [--limit N] [--after CURSOR] [--json]
    Keys oldest first, revoked ones included, with the limits in force, scopes, status and last use, a page at a
    time (--limit 1 to 100, default 20); prints the command for the next page when there is one.`,
  cursorFlag: '--after',
  input(args) {
    const { values, positionals } = parseFlags(args, { limit: { type: 'string' }, after: { type: 'string' } });
    noPositionals(positionals);
    return { limitText: values.limit, limit: pageLimitFlag(values.limit), cursor: values.after, json: values.json };
  },
  uses: async (open): Promise<Pick<PetStore, 'listApiKeys'>> => ({ listApiKeys: (await open.petStore()).listApiKeys }),
  async run({ limitText, limit, cursor, json }, { listApiKeys }, io) {
    const page = await listApiKeys.execute({ limit, cursor });
    if (json) {
      io.out(asJson(page));
      return 0;
    }
    io.out(keyTable(page.keys));
    if (page.nextCursor !== null)
      io.err(`More keys: petstore keys list${limitText === undefined ? '' : ` --limit ${limitText}`} --after ${page.nextCursor}`);
    return 0;
  },
});
