/**
 * The hexagon's edges, checked on every test run (packages/app/src/architecture.int.spec.ts) and by `pnpm lint`.
 * Paths are matched both resolved (packages/..., node_modules/...) and unresolved (bare specifiers).
 */
const FRAMEWORKS = '(koa|@koa/[^/]+|typeorm|inversify|@inversifyjs/[^/]+|pg|ioredis|better-sqlite3)';
const ADAPTERS = '(persistence-typeorm|http-koa|rate-limit-redis)';

module.exports = {
  forbidden: [
    {
      name: 'core-stays-pure',
      comment: 'core is the domain: no framework, driver or DI library, and no other workspace package.',
      severity: 'error',
      from: { path: '^packages/core/' },
      to: {
        path: [`(^|/)node_modules/${FRAMEWORKS}/`, `^${FRAMEWORKS}(/|$)`, '^packages/(?!core/)', '^@petstore/(?!core($|/))'],
      },
    },
    {
      name: 'adapters-stay-apart',
      comment: 'an adapter depends on core only, never on another adapter or on app.',
      severity: 'error',
      from: { path: `^packages/${ADAPTERS}/` },
      to: {
        path: [`^packages/(${ADAPTERS.slice(1, -1)}|app)/`, `^@petstore/(${ADAPTERS.slice(1, -1)}|app)($|/)`],
        pathNot: '^packages/$1/',
      },
    },
    {
      name: 'only-app-wires-adapters',
      comment: 'adapters are chosen and wired in the composition root (app) alone.',
      severity: 'error',
      from: { path: '^packages/(?!app/)', pathNot: `^packages/${ADAPTERS}/` },
      to: { path: [`^packages/${ADAPTERS}/`, `^@petstore/${ADAPTERS}($|/)`] },
    },
    {
      name: 'client-stands-alone',
      comment:
        'the published client runs in browsers and Node on fetch alone: its code imports only its own files (its tests may import anything; ' +
        'its webhook verifier is the next rule).',
      severity: 'error',
      from: { path: '^packages/client/src/', pathNot: '(\\.spec\\.ts$|^packages/client/src/testing/|^packages/client/src/webhooks\\.ts$)' },
      to: { pathNot: '^packages/client/src/' },
    },
    {
      name: 'client-webhooks-apart',
      comment:
        'the webhook verifier (the `@petstore/client/webhooks` entry) imports the client and standardwebhooks alone: only it ' +
        'imports standardwebhooks, so the main entry keeps no runtime dependency.',
      severity: 'error',
      from: { path: '^packages/client/src/webhooks\\.ts$' },
      to: { pathNot: ['^packages/client/src/', '(^|/)node_modules/standardwebhooks/'] },
    },
    {
      name: 'opentelemetry-only-in-tracing',
      comment: 'the OpenTelemetry SDK, its instrumentations and module hooks are loaded by app/src/tracing.ts alone.',
      severity: 'error',
      from: { path: '^packages/', pathNot: '^packages/app/src/tracing\\.ts$' },
      to: { path: ['(^|/)node_modules/(@opentelemetry/|import-in-the-middle/)', '^(@opentelemetry/|import-in-the-middle$)'] },
    },
    {
      name: 'tracing-loaded-on-demand',
      comment: 'tracing.ts is imported dynamically (main.ts, when an OTLP endpoint is set): unset, nothing of it is loaded.',
      severity: 'error',
      from: {},
      to: { path: '^packages/app/src/tracing\\.ts$', dependencyTypesNot: ['dynamic-import'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules|\.tmp-arch-probe-[^/]+)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.base.json') },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'], extensions: ['.ts', '.js', '.d.ts'] },
  },
};
