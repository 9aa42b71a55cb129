import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import type { Config } from './config.js';

/** The semi-space the bin starts Node with (`--min-semi-space-size=8`): a young generation of two, 16 MB. */
const HELD_SEMI_SPACE_BYTES = 8 * 1024 * 1024;
/** V8's own factor, the same in Node 20 to 24. */
const V8_GROWTH_FACTOR = 2;

export interface YoungGeneration {
  /** Lets the young generation grow again when the server runs on PostgreSQL; on SQLite it stays held. */
  sizeFor(config: Pick<Config, 'databaseUrl'>): void;
}

/**
 * Keeps V8's young generation at the size Node started it with while the server's modules load, which would otherwise
 * grow it to V8's largest (32 MB on Node 20, 64 MB on Node 24) before the first request.
 *
 * On SQLite a request is answered within the turn that read it, so little is alive at a scavenge and 16 MB is as fast
 * as 32 MB, for 16 MB less memory. On PostgreSQL a request waits two round trips and more of it is alive at each
 * scavenge; a young generation held at 16 MB promotes it, and full collections then cost a fifth of the throughput. So
 * it grows there as V8 decides (docs/decisions/0034-young-generation-by-database.md).
 *
 * V8 reads its growth factor each time it would grow the young generation, so setting it at run time takes effect.
 * Nothing is held when Node started the young generation smaller than the bin does (without `--min-semi-space-size=8`):
 * held at V8's 1 MB start, it would scavenge many times as often.
 */
export function holdYoungGeneration(): YoungGeneration {
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
  const held = newSpace !== undefined && newSpace.space_size >= HELD_SEMI_SPACE_BYTES;
  if (held) setFlagsFromString('--semi-space-growth-factor=1');
  return {
    sizeFor({ databaseUrl }) {
      // A loaded configuration's URL is sqlite:<path> or a PostgreSQL URL.
      if (held && !databaseUrl.startsWith('sqlite:')) setFlagsFromString(`--semi-space-growth-factor=${V8_GROWTH_FACTOR}`);
    },
  };
}
