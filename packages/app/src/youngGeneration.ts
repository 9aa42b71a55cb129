import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** The semi-space the bin starts Node with (`--min-semi-space-size=8`): a young generation of two, 16 MB. */
const HELD_SEMI_SPACE_BYTES = 8 * 1024 * 1024;

/**
 * On SQLite, keeps V8's young generation at the size Node started it with, for good. Call it first, before the
 * server's modules load: loading them would grow it to V8's largest (32 MB on Node 20, 64 MB on Node 24) before the
 * first request. True when it holds.
 *
 * On SQLite a request is answered within the turn that read it, so little is alive at a scavenge and 16 MB is as fast
 * as 32 MB, for 16 MB less memory. On PostgreSQL a request waits two round trips and more of it is alive at each
 * scavenge: a young generation held small, even only while the modules load, can leave the server in a mode where it
 * promotes much of it and full collections cost a fifth of the throughput. There V8 sizes it as it does for any
 * program (docs/decisions/0034-young-generation-by-database.md).
 *
 * The database is the configuration's: `DATABASE_URL`, SQLite when unset or empty, read from `env` because the
 * configuration is loaded with the modules. V8 reads its growth factor each time it would grow the young
 * generation, so setting it at run time takes effect. Nothing is held when Node started the young generation
 * smaller than the bin does (without `--min-semi-space-size=8`): held at V8's 1 MB start, it would scavenge many
 * times as often.
 */
export function holdYoungGenerationOnSqlite(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  if (!(env['DATABASE_URL'] || 'sqlite:').startsWith('sqlite:')) return false;
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  if (newSpace === undefined || newSpace.space_size < HELD_SEMI_SPACE_BYTES) return false;
  setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}
