import Koa from 'koa';
import { errorResponses, logToStderr } from '../middleware/errorResponses.js';
import { notFound } from '../middleware/notFound.js';
import { protocolChecks } from '../middleware/protocolChecks.js';
import { recordResponses, reportStreamErrors, type ResponseRecord } from '../middleware/recordResponses.js';
import { consolePages } from './consolePages.js';
import { createAdminApi, type AdminApiDeps, type AdminApiOptions } from './createAdminApi.js';

/** The Koa application of the admin listener (`app.callback()` for `http.createServer`). */
export type AdminApp = Koa;

export interface AdminAppOptions extends AdminApiOptions {
  /** Called once per request, after the response is decided (access logs, metrics). */
  onResponse?: (record: ResponseRecord) => void;
  /** The built operator console (`@petstore/console`'s `CONSOLE_DIRECTORY`), served at `/console`; default none. */
  consoleDirectory?: string;
}

/**
 * The Koa application of the admin listener: the protocol checks, the admin interface under `/admin/v1`, the operator
 * console at `/console` when `consoleDirectory` is given, and the Error body for everything else (404).
 */
export function createAdminApp(deps: AdminApiDeps, options: AdminAppOptions): AdminApp {
  const app = new Koa();
  const onInternalError = options.onInternalError ?? logToStderr;
  if (options.onResponse) app.use(recordResponses(options.onResponse));
  app.use(errorResponses(onInternalError, () => deps.clock.now().getTime()));
  app.use(protocolChecks);
  app.use(createAdminApi(deps, { ...options, onInternalError }));
  if (options.consoleDirectory !== undefined) app.use(consolePages(options.consoleDirectory));
  app.use(notFound);
  reportStreamErrors(app, onInternalError);
  return app;
}
