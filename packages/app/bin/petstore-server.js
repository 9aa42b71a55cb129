#!/usr/bin/env node
// The server (`petstore-server`, and `pnpm start`); a file of its own so that the bin exists before the first build.
// Node's settings for production are the operator's (docs/deployment.md).
import '../dist/main.js';
