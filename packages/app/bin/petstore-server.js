#!/usr/bin/env -S MALLOC_ARENA_MAX=1 node --no-allocation-site-pretenuring --heap-growing-percent=25 --min-semi-space-size=8
// The server (`petstore-server`, and `pnpm start`). Node reads the V8 flags on the line above from its command line,
// and glibc the environment variable before them; docs/operations.md says what each does.
// A file of its own so that the bin exists before the first build.
import '../dist/main.js';
