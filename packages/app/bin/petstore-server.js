#!/usr/bin/env sh
':' //; exec env MALLOC_ARENA_MAX=1 node --no-allocation-site-pretenuring --heap-growing-percent=25 --min-semi-space-size=8 "$0" "$@"
// The server (`petstore-server`, and `pnpm start`): a shell script and an ES module at once. sh runs the line above
// (`':'` does nothing, `//;` is its argument), which starts Node on this file with the V8 flags and glibc's
// MALLOC_ARENA_MAX that docs/operations.md explains; for Node that line is a string and a comment. Not
// `#!/usr/bin/env -S VAR=value node`: pnpm's bin shims (and npm's on Windows) take `VAR=value` for the program.
// A file of its own so that the bin exists before the first build.
import '../dist/main.js';
