export { freePort, postgresBinDir, startPostgres, type RunningPostgres } from './startPostgres.js';
export { pgbouncerBinary, startPgBouncer, type PgBouncerSetup, type RunningPgBouncer } from './startPgBouncer.js';
export { redisServerBinary, startRedis, type RunningRedis } from './startRedis.js';
export { eventually, type EventuallyOptions } from './eventually.js';
export { launchNodeProcess, runNodeProcess, type LaunchedProcess, type LaunchOptions, type ProcessResult } from './processes.js';
export { loadedModulesProbe, type LoadedModulesProbe } from './loadedModules.js';
export { rawRequest, type RawRequestOptions, type RawResponse } from './rawHttp.js';
export { fetchAllPages, nextLink } from './followNextLinks.js';
export {
  CLI_BIN,
  CLI_ENTRY,
  issueKey,
  issueUnlimitedKey,
  issueUnlimitedKeyWithCli,
  runCli,
  SERVER_BIN,
  SERVER_ENTRY,
  spawnServer,
  STOPPED_AT_ONCE,
  WITH_ADMIN_API,
  type KeySettings,
  type ServerProcess,
} from './builtApp.js';
export { redisCliBinary, startRedisCluster, type RunningReplicatedRedis } from './redisTopologies.js';
export { CHROMIUM_PATH, chromiumAvailable, launchChromium, type LaunchedChromium } from './chromium.js';
export { FIREFOX_PATH, firefoxAvailable, launchFirefox, type FirefoxBrowser } from './firefox.js';
