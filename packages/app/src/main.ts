#!/usr/bin/env node
import { ConfigError, loadConfig, type Config } from './config.js';
import { redact } from '@petstore/persistence-typeorm';
import { startServer } from './server.js';
import { TOKENS } from './tokens.js';

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}

// Signals are handled from the start: one that arrives while the server starts waits for it, then stops it.
const starting = startServer(config).catch((error: unknown): never => {
  process.stderr.write(`failed to start: ${redact(error instanceof Error ? error.message : String(error))}\n`);
  process.exit(1);
});
let stopping = false;
const stop = (signal: string) => {
  if (stopping) {
    process.stderr.write(`${signal} again: exiting without waiting\n`);
    process.exit(1);
  }
  stopping = true;
  if (config.logLevel !== 'silent') process.stdout.write(`${signal}: finishing in-flight requests, then stopping\n`);
  starting
    .then((running) => running.close())
    .then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error while stopping: ${redact(String(error))}\n`);
        process.exit(1);
      },
    );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => stop('SIGINT'));

// Log lines are buffered (a few KiB, at most 250 ms): whatever ends the process, they are written.
const logger = await (await starting).container.getAsync(TOKENS.Logger);
process.once('exit', () => logger.flush());
