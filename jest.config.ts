import type { Config } from 'jest';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const packages = readdirSync(join(__dirname, 'packages'));
const src = (name: string, file = 'index.ts') => join(__dirname, 'packages', name, 'src', file);

// Tests run on the TypeScript sources (no build needed); workspace imports are mapped to them.
const moduleNameMapper: Record<string, string> = {
  '^@petstore/core/testing$': src('core', 'testing/index.ts'),
  '^@petstore/core/contracts$': src('core', 'testing/contracts/index.ts'),
  '^@petstore/test-support/jest$': src('test-support', 'jest.ts'),
  '^(\\.{1,2}/.*)\\.js$': '$1',
};
for (const name of packages) if (existsSync(src(name))) moduleNameMapper[`^@petstore/${name}$`] = src(name);

const common = {
  rootDir: __dirname,
  roots: [...packages.map((name) => `<rootDir>/packages/${name}/src`), '<rootDir>/examples/src'],
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper,
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: join(__dirname, 'tsconfig.spec.json') }] },
};

// One project per kind of test, each with a timeout that fits what it does on a loaded 2-core machine:
// unit tests are pure (no I/O), integration tests start databases and Redis, end-to-end tests start processes.
const config: Config = {
  projects: [
    { ...common, displayName: 'unit', testTimeout: 5_000, testMatch: ['**/*.spec.ts'], testPathIgnorePatterns: ['\\.int\\.spec\\.ts$', '\\.e2e\\.spec\\.ts$'] },
    { ...common, displayName: 'integration', testMatch: ['**/*.int.spec.ts'], testTimeout: 60_000 },
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e.spec.ts'], testTimeout: 120_000 },
  ],
  coverageProvider: 'v8',
  coverageReporters: ['text-summary', 'json-summary'],
  // The domain is where the rules live: its line coverage must stay at 95% or more.
  coverageThreshold: { global: {}, './packages/core/src/': { lines: 95 } },
  collectCoverageFrom: ['packages/*/src/**/*.ts', '!**/*.spec.ts', '!**/testing/**', '!**/index.ts', '!packages/core/src/ports/**'],
};

export default config;
