#!/usr/bin/env node
// First: on an unsupported Node, nothing else loads.
import './requireSupportedNode.js';
import type { Config } from './config.js';

// Traces only when an OTLP endpoint is set: the SDK starts, and hooks the modules it instruments (http, pg,
// ioredis), before any of them is imported, so everything else is imported after it. Unset, no OpenTelemetry
// module is loaded (docs/decisions/0022-tracing.md).
const tracing =
  process.env['OTEL_EXPORTER_OTLP_ENDPOINT'] || process.env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']
    ? await (await import('./tracing.js')).startTracing({ adminToken: process.env['ADMIN_TOKEN'] })
    : null;
const { ConfigError, loadConfig } = await import('./config.js');
const { redact } = await import('@petstore/persistence-typeorm');
const { startServer } = await import('./server.js');
const { createContainer } = await import('./container.js');
const { TOKENS } = await import('./tokens.js');

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(2);
}

/** The container with tracing's hooks bound, when tracing is on; startServer builds the plain one otherwise. */
function tracedContainer() {
  if (!tracing) return undefined;
  const container = createContainer(config);
  container.rebind(TOKENS.Tracing).toConstantValue(tracing.hooks);
  return container;
}

// Signals are handled from the start: one that arrives while the server starts waits for it, then stops it.
const starting = startServer(config, tracedContainer()).catch((error: unknown): never => {
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
    // The spans still batched are exported once the last requests are answered.
    .then(() => tracing?.shutdown())
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
