import type { Config } from 'jest';
import { join } from 'node:path';

const packages = ['core', 'persistence-typeorm', 'http-koa', 'rate-limit-redis', 'app', 'bench', 'test-support', 'client'];
const src = (name: string, file = 'index.ts') => join(__dirname, 'packages', name, 'src', file);

// Tests run on the TypeScript sources (no build needed); workspace imports are mapped to them.
const moduleNameMapper: Record<string, string> = {
  '^@petstore/core/testing$': src('core', 'testing/index.ts'),
  '^@petstore/core/contracts$': src('core', 'testing/contracts/index.ts'),
  '^@petstore/app/testing/(.*)$': src('app', 'testing/$1.ts'),
  '^(\\.{1,2}/.*)\\.js$': '$1',
};
for (const name of packages) moduleNameMapper[`^@petstore/${name}$`] = src(name);

const config: Config = {
  projects: packages.map((name) => ({
    displayName: name,
    rootDir: join(__dirname, 'packages', name),
    roots: ['<rootDir>/src'],
    testMatch: ['**/*.spec.ts'],
    testEnvironment: 'node',
    extensionsToTreatAsEsm: ['.ts'],
    moduleNameMapper,
    transform: {
      '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: join(__dirname, 'packages', name, 'tsconfig.json') }],
    },
  })),
  coverageProvider: 'v8',
  coverageReporters: ['text-summary', 'json-summary'],
  // The domain is where the rules live: its line coverage must stay at 95% or more.
  coverageThreshold: { global: {}, './packages/core/src/': { lines: 95 } },
  collectCoverageFrom: ['packages/*/src/**/*.ts', '!**/*.spec.ts', '!**/testing/**', '!**/index.ts', '!packages/core/src/ports/**'],
};

export default config;
