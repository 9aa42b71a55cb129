import { DEFAULT_GRACE_PERIOD_SECONDS, type PetStore } from '@petstore/core';
import { asJson, defineCommand, exactlyOneId, parseFlags } from '../CliCommand.js';
import { graceFlag } from '../flags.js';

export const rotateKey = defineCommand({
  name: 'keys rotate',
  help: `petstore keys rotate ID [--grace DURATION] [--json]
    Prints a new secret for the same key (plan, limits, scopes, quota and ban kept). The old secret keeps working
    for the grace period (0, 90s, 30m, 24h, 7d...; default 24h, at most 30d), then gets 401.`,
  input(args) {
    const { values, positionals } = parseFlags(args, { grace: { type: 'string' } });
    const id = exactlyOneId(positionals, 'keys rotate');
    return { id, gracePeriodSeconds: graceFlag(values.grace) ?? DEFAULT_GRACE_PERIOD_SECONDS, json: values.json };
  },
  uses: async (open): Promise<Pick<PetStore, 'rotateApiKey'>> => ({ rotateApiKey: (await open.petStore()).rotateApiKey }),
  async run({ id, gracePeriodSeconds, json }, { rotateApiKey }, io) {
    const issued = await rotateApiKey.execute(id, { gracePeriodSeconds }, 'cli');
    io.out(json ? asJson({ ...issued.key, key: issued.secret }) : issued.secret);
    const old = gracePeriodSeconds === 0 ? 'the old secret no longer works' : `the old secret works until ${issued.key.previousSecretExpiresAt!}`;
    io.err(`Rotated ${issued.key.id}: ${old}. The new secret is shown only once.`);
    return 0;
  },
});
