#!/usr/bin/env node
// The `petstore` admin CLI; a file of its own so that the bin exists before the first build.
import '../dist/cli/main.js';
