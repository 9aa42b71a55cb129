import type { PetStore } from '@petstore/core';
import { asJson, defineCommand, parseFlags } from '../CliCommand.js';
import { pageLimitFlag, UsageError } from '../flags.js';
import { auditTable } from '../tables.js';

export const keyAudit = defineCommand({
  name: 'keys audit',
  help: `petstore keys audit [ID] [--limit N] [--before CURSOR] [--json]
    Every change made to keys (or to one), newest first: when, by whom (cli, admin-api), what, each field before
    and after. Never a secret.`,
  cursorFlag: '--before',
  input(args) {
    const { values, positionals } = parseFlags(args, { limit: { type: 'string' }, before: { type: 'string' } });
    if (positionals.length > 1) throw new UsageError('keys audit takes at most one key id');
    return { keyId: positionals[0], limitText: values.limit, limit: pageLimitFlag(values.limit), cursor: values.before, json: values.json };
  },
  uses: async (open): Promise<Pick<PetStore, 'listAuditEvents'>> => ({ listAuditEvents: (await open.petStore()).listAuditEvents }),
  async run({ keyId, limitText, limit, cursor, json }, { listAuditEvents }, io) {
    const page = await listAuditEvents.execute({ keyId, limit, cursor });
    if (json) {
      io.out(asJson(page));
      return 0;
    }
    io.out(auditTable(page.events));
    if (page.nextCursor !== null) {
      const filters = `${keyId === undefined ? '' : ` ${keyId}`}${limitText === undefined ? '' : ` --limit ${limitText}`}`;
      io.err(`Older events: petstore keys audit${filters} --before ${page.nextCursor}`);
    }
    return 0;
  },
});
