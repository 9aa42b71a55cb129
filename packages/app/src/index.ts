export { ConfigError, loadConfig, type Config } from './config.js';
export { closeContainer, createContainer } from './container.js';
export { TOKENS, type Closer, type ReadinessCheck, type TracingHooks } from './tokens.js';
export { startServer, type RunningServer } from './server.js';
export { Metrics } from './metrics.js';
export { runCli } from './cli/runCli.js';
