#!/usr/bin/env node
// First: on an unsupported Node, nothing else loads.
import '../requireSupportedNode.js';

const { runCli } = await import('./runCli.js');

process.exitCode = await runCli(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
});
