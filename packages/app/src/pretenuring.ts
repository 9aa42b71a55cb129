import { setFlagsFromString } from 'node:v8';

/** The V8 flag, also accepted on Node's command line (not in `NODE_OPTIONS`). */
export const NO_PRETENURING_FLAG = '--no-allocation-site-pretenuring';

/**
 * Turns off V8's allocation-site pretenuring for the whole process. Under the server's load V8 may decide that the
 * objects of one allocation site (a database row, a page's pets) outlive young-generation collections and allocate
 * them in the old generation from then on; there they keep every young object they point to alive until the next
 * full collection, and each random page then costs 1.5 to 2 times the CPU (docs/decisions/v8-pretenuring-off.md).
 * The server calls it at start-up; an embedder that runs the server in its own process may call it too, or start
 * Node with the flag.
 */
export function turnOffAllocationSitePretenuring(): void {
  setFlagsFromString(NO_PRETENURING_FLAG);
}
