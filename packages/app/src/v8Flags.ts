import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flags the server sets at start-up (each also accepted on Node's command line, not in `NODE_OPTIONS`):
 * - no allocation-site pretenuring: under the server's load V8 may decide that the objects of one allocation site (a
 *   database row, a page's pets) outlive young-generation collections and allocate them in the old generation from
 *   then on; there they keep every young object they point to alive until the next full collection, and each random
 *   page then costs 1.5 to 2 times the CPU;
 * - the old generation grown to 1.25 times what a full collection leaves alive, where V8 would allow up to 4 times
 *   after start-up: the peak RSS under random pages falls by 20 MB or more, at about the same CPU.
 * docs/decisions/0024-v8-server-flags.md has the measurements.
 */
export const SERVER_V8_FLAGS = ['--no-allocation-site-pretenuring', '--heap-growing-percent=25'] as const;

/**
 * Sets `SERVER_V8_FLAGS` for the whole process. The server calls it first thing; an embedder that runs the server
 * in its own process may call it too, or start Node with the flags.
 */
export function setServerV8Flags(): void {
  for (const flag of SERVER_V8_FLAGS) setFlagsFromString(flag);
}
