// TypeScript that Node runs as it is (types stripped, Node 22.18 and later): Jest loads it with no loader.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from 'jest';

const root = import.meta.dirname;
const packages = readdirSync(join(root, 'packages'));
const src = (name: string, file = 'index.ts') => join(root, 'packages', name, 'src', file);

// Tests run on the TypeScript sources (no build needed); workspace imports are mapped to them.
const moduleNameMapper: Record<string, string> = {
  '^@petstore/core/testing$': src('core', 'testing/index.ts'),
  '^@petstore/core/contracts$': src('core', 'testing/contracts/index.ts'),
  '^@petstore/test-support/jest$': src('test-support', 'jest.ts'),
  '^@petstore/http-koa/admin-token$': src('http-koa', 'admin/adminTokenLength.ts'),
  '^(\\.{1,2}/.*)\\.js$': '$1',
};
for (const name of packages) if (existsSync(src(name))) moduleNameMapper[`^@petstore/${name}$`] = src(name);

const common = {
  rootDir: root,
  roots: [...packages.map((name) => `<rootDir>/packages/${name}/src`), '<rootDir>/examples/src'],
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper,
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: join(root, 'tsconfig.spec.json') }] },
};

const ioTests = ['\\.int\\.spec\\.ts$', '\\.e2e\\.spec\\.ts$'];
const timeouts = (kind: string) => [join(root, 'packages', 'test-support', 'src', 'jestTimeouts', `${kind}.ts`)];

// One project per kind of test, each with a default timeout that fits what it does on a loaded 2-core machine
// (unit 5 s: pure, no I/O; integration 60 s: databases and Redis; e2e 120 s: processes, browsers), set by a setup file.
// The pure tests are two projects: core's, which `pnpm test` runs with coverage, and every other package's, run
// without (`pnpm test:unit` runs both).
const config: Config = {
  projects: [
    {
      ...common,
      displayName: 'core',
      roots: ['<rootDir>/packages/core/src'],
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ioTests,
      setupFilesAfterEnv: timeouts('unit'),
    },
    {
      ...common,
      displayName: 'unit',
      testMatch: ['**/*.spec.ts'],
      testPathIgnorePatterns: ['<rootDir>/packages/core/', ...ioTests],
      setupFilesAfterEnv: timeouts('unit'),
    },
    ...['integration', 'e2e'].map((kind) => ({
      ...common,
      displayName: kind,
      testMatch: [`**/*.${kind === 'integration' ? 'int' : 'e2e'}.spec.ts`],
      setupFilesAfterEnv: timeouts(kind),
    })),
  ],
  // Two suites at a time, whatever the machine: Jest's default (cores - 1) runs CI's 2 cores in one process, and the
  // end-to-end suites spend most of their time waiting on the servers, databases and browsers they start. The tests
  // are written for a loaded 2-core machine, which is what two workers there make.
  maxWorkers: 2,
  // Every test file loads its modules anew, so a worker's heap grows with each file until it is too big to exit in
  // the time Jest gives it ("a worker process has failed to exit gracefully"). A worker whose heap is past this after
  // a file is replaced (measured in docs/contributing.md).
  workerIdleMemoryLimit: '300MB',
  // Coverage is the core project's (`pnpm test` runs it with --coverage): the domain's rules must be covered by its
  // pure tests, 95% of core's lines or more. Not taken on the other projects: the suites that run the Koa app in
  // process it slowed several times over, and the other pure tests (which load core too) by half (docs/contributing.md).
  // Istanbul's counters, put in as each file is transformed (Jest's default), not V8's: V8's are converted after
  // every test file for every module loaded, which cost core's tests twice the CPU (45 CPU-s against 21).
  coverageProvider: 'babel',
  coverageReporters: ['text-summary', 'json-summary'],
  coverageThreshold: { global: {}, './packages/core/src/': { lines: 95 } },
  collectCoverageFrom: ['packages/core/src/**/*.ts', '!**/*.spec.ts', '!**/testing/**', '!**/index.ts', '!packages/core/src/ports/**'],
};

export default config;
