#!/usr/bin/env node
// The server (`petstore-server`, and `pnpm start`); a file of its own so that the bin exists before the first build.
// It runs the bundle `pnpm build` makes of dist/main.js (docs/decisions/0047-bundled-server-and-cli.md). Node's
// settings for production are the operator's (docs/deployment.md).
import '../dist/bundle/server.js';
