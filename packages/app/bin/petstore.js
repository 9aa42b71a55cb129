#!/usr/bin/env node
// The `petstore` admin CLI; a file of its own so that the bin exists before the first build. It runs the bundle
// `pnpm build` makes of dist/cli/main.js (docs/decisions/0047-bundled-server-and-cli.md).
import '../dist/bundle/cli.js';
