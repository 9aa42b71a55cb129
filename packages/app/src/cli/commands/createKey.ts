import type { PetStore } from '@petstore/core';
import { asJson, defineCommand, noPositionals, parseFlags } from '../CliCommand.js';
import { expiresAtFlag, limitFlag, scopesFlag, UsageError } from '../flags.js';

export const createKey = defineCommand({
  name: 'keys create',
  help: `petstore keys create --plan free|pro|business|enterprise [--name TEXT] [--per-minute N] [--per-day N]
                     [--scopes pets:read,pets:write] [--expires-at ISO-8601] [--json]
    Issues a key and prints its secret alone on stdout (shown only this once; only its hash is stored).
    Enterprise keys need both custom limits, whole numbers from 1, per-minute at most per-day.
    Scopes default to both; --expires-at takes a future date and time with its offset (2027-01-01T00:00:00Z).`,
  input(args) {
    const { values, positionals } = parseFlags(args, {
      plan: { type: 'string' },
      name: { type: 'string' },
      'per-minute': { type: 'string' },
      'per-day': { type: 'string' },
      scopes: { type: 'string' },
      'expires-at': { type: 'string' },
    });
    noPositionals(positionals);
    if (values.plan === undefined) throw new UsageError('keys create needs --plan free|pro|business|enterprise');
    const settings = {
      plan: values.plan,
      name: values.name,
      perMinute: limitFlag('--per-minute', values['per-minute']),
      perDay: limitFlag('--per-day', values['per-day']),
      scopes: scopesFlag(values.scopes),
      expiresAt: expiresAtFlag(values['expires-at'], false),
    };
    return { settings, json: values.json };
  },
  uses: async (open): Promise<Pick<PetStore, 'issueApiKey'>> => ({ issueApiKey: (await open.petStore()).issueApiKey }),
  async run({ settings, json }, { issueApiKey }, io) {
    const issued = await issueApiKey.execute(settings, 'cli');
    io.out(json ? asJson({ ...issued.key, key: issued.secret }) : issued.secret);
    io.err(`Created ${issued.key.id} on the ${issued.key.plan} plan. The secret is shown only once.`);
    return 0;
  },
});
