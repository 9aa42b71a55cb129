import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError, answerConnect, continueOnceAdmitted } from '@petstore/http-koa';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import { adminUrl as adminUrlOf, listeningUrl, type Config } from './config.js';
import { closeContainer, createContainer } from './container.js';
import { createDrainableServer, type Drain, type DrainableServer } from './drain.js';
import { listenFailure, type ListenSetting } from './listenFailure.js';
import { TOKENS } from './tokens.js';

export interface RunningServer {
  /** Where the API answers, e.g. http://127.0.0.1:3000/v1 (the listening address, not PUBLIC_BASE_URL). */
  url: string;
  port: number;
  metricsPort: number | null;
  /** Where the admin API answers (`http://127.0.0.1:3001/admin/v1`); null without ADMIN_TOKEN. */
  adminUrl: string | null;
  container: Container;
  /** Stops accepting, lets in-flight requests finish (bounded), then closes the database and other resources. */
  close(): Promise<void>;
}

/** Addresses that listen on every interface: no client reaches the server by them from elsewhere. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::']);

/** Slow clients are cut off (headers within 10 s, the whole request within 30 s by default); idle keep-alive after 5 s. */
function timeouts(config: Config) {
  return {
    headersTimeout: config.headersTimeoutMs,
    requestTimeout: Math.max(config.requestTimeoutMs, config.headersTimeoutMs),
    keepAliveTimeout: 5_000,
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(config.headersTimeoutMs / 2)),
  };
}

/**
 * A server for a Koa app. Requests without Host and with an unknown Expect go to the app, which answers them with the
 * Error body; Node's own answers to them are empty. Malformed requests and CONNECT get the Error body too.
 */
function createAppServer(config: Config): DrainableServer {
  const app = createDrainableServer({ ...timeouts(config), requireHostHeader: false });
  Object.assign(app.server, timeouts(config));
  app.server.on('clientError', answerClientError);
  app.server.on('connect', answerConnect);
  continueOnceAdmitted(app.server);
  return app;
}

async function listen(server: Server, setting: ListenSetting): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => reject(listenFailure(error, setting));
    server.once('error', fail);
    server.listen(setting.port, setting.host, () => {
      server.off('error', fail);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

/** A first-run convenience: outside production, an empty key store gets one Free key, printed once. */
async function ensureDevelopmentKey(container: Container, config: Config, url: string): Promise<void> {
  if (config.nodeEnv === 'production') return;
  const { listApiKeys, issueApiKey } = await container.getAsync(TOKENS.PetStore);
  if ((await listApiKeys.execute({ limit: 1 })).keys.length > 0) return;
  const { key, secret } = await issueApiKey.execute({ plan: 'free', name: 'first-run development key' }, 'system');
  process.stdout.write(
    `\nCreated a Free-plan API key (${key.id}) because the key store was empty. It is shown only this once:\n\n` +
      `  ${secret}\n\nTry it:\n\n  curl -i -H "Authorization: Bearer ${secret}" ${url}/pets\n\n`,
  );
}

/**
 * Builds everything from the configuration and starts listening. The port is bound first, so that without
 * PUBLIC_BASE_URL the links name the address that answers (`PORT=0` included); requests that arrive while the rest
 * starts wait for it. A `container` passed in must not have resolved `TOKENS.HttpApp` yet.
 */
export async function startServer(config: Config, container?: Container): Promise<RunningServer> {
  const { server, drain } = createAppServer(config);
  let callback: RequestListener | undefined;
  const early: [IncomingMessage, ServerResponse][] = [];
  const handle: RequestListener = (req, res) => (callback ? callback(req, res) : void early.push([req, res]));
  server.on('request', handle);
  server.on('checkExpectation', handle);
  const port = await listen(server, { variable: 'PORT', port: config.port, host: config.host });
  const url = listeningUrl(config.host, port);

  let logger: Logger;
  try {
    container ??= createContainer(config);
    container.rebind(TOKENS.ListeningUrl).toConstantValue(url);
    logger = await container.getAsync(TOKENS.Logger);
    const koaCallback = (await container.getAsync(TOKENS.HttpApp)).callback();
    // Koa's handler settles every request itself (errors included): nothing to await here.
    callback = (req, res) => void koaCallback(req, res);
  } catch (error) {
    server.closeAllConnections();
    server.close();
    throw error;
  }
  for (const [req, res] of early.splice(0)) callback(req, res);
  await ensureDevelopmentKey(container, config, url);
  // Deliveries left by an earlier run (a restart, a crash) are picked up by the first round.
  (await container.getAsync(TOKENS.WebhookWorker)).start();
  (await container.getAsync(TOKENS.HistoryPurger)).start();

  let metricsPort: number | null = null;
  let drainMetrics: Drain | undefined;
  if (config.metricsPort !== null) {
    const metrics = await container.getAsync(TOKENS.Metrics);
    const metricsServer = createDrainableServer({}, (req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': metrics.registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
    });
    metricsPort = await listen(metricsServer.server, {
      variable: 'METRICS_PORT',
      port: config.metricsPort,
      host: config.metricsHost,
      hostVariable: 'METRICS_HOST',
    });
    drainMetrics = metricsServer.drain;
  }
  let adminUrl: string | null = null;
  let drainAdmin: Drain | undefined;
  if (config.admin !== null) {
    const { port: wanted, host, publicBaseUrl } = config.admin;
    const adminServer = createAppServer(config);
    const adminPort = await listen(adminServer.server, { variable: 'ADMIN_PORT', port: wanted, host, hostVariable: 'ADMIN_HOST' });
    adminUrl = adminUrlOf(host, adminPort);
    container.rebind(TOKENS.AdminUrl).toConstantValue(publicBaseUrl ?? adminUrl);
    const adminCallback = (await container.getAsync(TOKENS.AdminApp)).callback();
    const handleAdmin: RequestListener = (req, res) => void adminCallback(req, res);
    adminServer.server.on('request', handleAdmin);
    adminServer.server.on('checkExpectation', handleAdmin);
    drainAdmin = adminServer.drain;
  }
  logger.info({ url, publicBaseUrl: config.publicBaseUrl ?? url, metricsPort, adminUrl, database: config.databaseUrl.split(':')[0] }, 'listening');
  if (config.publicBaseUrl === null && WILDCARD_HOSTS.has(config.host)) {
    logger.warn({ host: config.host }, 'Location and Link name a wildcard address that other machines cannot use: set PUBLIC_BASE_URL');
  }
  if (config.admin !== null && config.admin.publicBaseUrl === null && WILDCARD_HOSTS.has(config.admin.host)) {
    logger.warn(
      { host: config.admin.host },
      "The admin API's Location names a wildcard address that other machines cannot use: set ADMIN_PUBLIC_BASE_URL",
    );
  }
  if (config.logLevel !== 'silent') {
    // The public line last: whoever waits for it (scripts, tests) then has both.
    if (adminUrl !== null) process.stdout.write(`Admin API listening on ${adminUrl}\n`);
    process.stdout.write(`Pet store listening on ${url}${metricsPort === null ? '' : ` (metrics on port ${metricsPort})`}\n`);
  }

  return {
    url,
    port,
    metricsPort,
    adminUrl,
    container,
    close: async () => {
      await Promise.all([drain(config.shutdownTimeoutMs), drainAdmin?.(config.shutdownTimeoutMs)]);
      await drainMetrics?.(1_000);
      await closeContainer(container);
      logger.info('stopped');
      logger.flush();
    },
  };
}
