import type { PetStore } from '@petstore/core';
import { asJson, defineCommand, exactlyOneId, parseFlags } from '../CliCommand.js';
import { expiresAtFlag, limitFlag, scopesFlag, UsageError } from '../flags.js';
import { keyDetails } from '../tables.js';

export const updateKey = defineCommand({
  name: 'keys update',
  help: `petstore keys update ID [--name TEXT] [--plan PLAN] [--per-minute N --per-day N | --plan-limits]
                     [--scopes LIST] [--expires-at ISO-8601|never] [--disable|--enable] [--json]
    Changes the given settings only; --plan-limits drops the custom limits. Running servers apply it within
    KEY_CACHE_TTL_MS (2 s by default).`,
  input(args) {
    const { values, positionals } = parseFlags(args, {
      name: { type: 'string' },
      plan: { type: 'string' },
      'per-minute': { type: 'string' },
      'per-day': { type: 'string' },
      'plan-limits': { type: 'boolean' },
      scopes: { type: 'string' },
      'expires-at': { type: 'string' },
      disable: { type: 'boolean' },
      enable: { type: 'boolean' },
    });
    const id = exactlyOneId(positionals, 'keys update');
    const perMinute = limitFlag('--per-minute', values['per-minute']);
    const perDay = limitFlag('--per-day', values['per-day']);
    if ((perMinute === undefined) !== (perDay === undefined)) throw new UsageError('--per-minute and --per-day go together: give both');
    if (values['plan-limits'] && perMinute !== undefined)
      throw new UsageError('--plan-limits drops the custom limits: give it without --per-minute and --per-day');
    if (values.disable && values.enable) throw new UsageError('give --disable or --enable, not both');
    const update = {
      name: values.name,
      plan: values.plan,
      perMinute: values['plan-limits'] ? null : perMinute,
      perDay: values['plan-limits'] ? null : perDay,
      scopes: scopesFlag(values.scopes),
      expiresAt: expiresAtFlag(values['expires-at'], true),
      disabled: values.disable ? true : values.enable ? false : undefined,
    };
    if (Object.values(update).every((value) => value === undefined)) {
      throw new UsageError(
        'keys update needs a setting to change: --name, --plan, --per-minute and --per-day, --plan-limits, --scopes, --expires-at, --disable or --enable',
      );
    }
    return { id, update, json: values.json };
  },
  uses: async (open): Promise<Pick<PetStore, 'updateApiKey'> & { keyCacheTtlMs: number }> => ({
    updateApiKey: (await open.petStore()).updateApiKey,
    keyCacheTtlMs: open.config.keyCacheTtlMs,
  }),
  async run({ id, update, json }, { updateApiKey, keyCacheTtlMs }, io) {
    const key = await updateApiKey.execute(id, update, 'cli');
    io.out(json ? asJson(key) : keyDetails(key));
    io.err(`Updated ${key.id}: running servers apply it within ${keyCacheTtlMs} ms.`);
    return 0;
  },
});
