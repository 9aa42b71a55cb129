import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from '@jest/globals';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');
const config = join(root, '.dependency-cruiser.cjs');

const run = promisify(execFile);

/**
 * One run of the command-line check (`pnpm lint` runs it on the tree itself): its exit code, the number of errors,
 * and the violations it prints (`  error <rule>: <from> → <to>`) as `<rule>: <from> -> <to>`.
 */
async function cruise(cwd: string): Promise<{ exitCode: number; violations: string[] }> {
  const { exitCode, stdout } = await run(depcruise, ['packages', '--config', config, '--output-type', 'err'], { cwd }).then(
    (result) => ({ exitCode: 0, stdout: result.stdout }),
    (error: { code: number; stdout: string }) => ({ exitCode: error.code, stdout: error.stdout }),
  );
  const violations = [...stdout.matchAll(/^ {2}error (\S+): (\S+) → (\S+)$/gm)].map(([, rule, from, to]) => `${rule}: ${from} -> ${to}`);
  return { exitCode, violations };
}

describe('architecture (dependency-cruiser, .dependency-cruiser.cjs)', () => {
  const probes: string[] = [];
  afterAll(async () => {
    await Promise.all(probes.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('fails on every forbidden edge', async () => {
    const probe = await mkdtemp(join(root, '.tmp-arch-probe-'));
    probes.push(probe);
    const files: Record<string, string[]> = {
      'core/src/bad.ts': ['koa', '@koa/router', 'typeorm', 'inversify', 'pg', 'ioredis', 'better-sqlite3', '@petstore/persistence-typeorm'],
      'http-koa/src/bad.ts': ['@petstore/persistence-typeorm', '@petstore/app'],
      'persistence-typeorm/src/bad.ts': ['@petstore/rate-limit-redis'],
      'bench/src/bad.ts': ['@petstore/http-koa'],
      'app/src/fine.ts': ['@petstore/http-koa', '@petstore/persistence-typeorm', 'inversify'],
      'app/src/tracing.ts': ['@opentelemetry/sdk-node', 'import-in-the-middle'],
      'app/src/bad.ts': ['@opentelemetry/api', 'import-in-the-middle', './tracing.js'],
      'client/src/bad.ts': ['node:crypto', '@petstore/core', 'standardwebhooks'],
      'client/src/webhooks.ts': ['node:crypto'],
      'client/src/fine.spec.ts': ['node:fs', '@petstore/app'],
    };
    for (const [file, imports] of Object.entries(files)) {
      await mkdir(join(probe, 'packages', dirname(file)), { recursive: true });
      await writeFile(
        join(probe, 'packages', file),
        imports.map((name, i) => `import * as m${i} from '${name}';\nexport const x${i} = m${i};\n`).join(''),
      );
    }

    const { exitCode, violations } = await cruise(probe);
    const found = violations.map((violation) => violation.replace('packages/', '')).sort();
    expect(exitCode).toBe(found.length);
    expect(found).toEqual(
      [
        ...files['core/src/bad.ts']!.map((name) => `core-stays-pure: core/src/bad.ts -> ${name}`),
        'only-app-wires-adapters: core/src/bad.ts -> @petstore/persistence-typeorm',
        'adapters-stay-apart: http-koa/src/bad.ts -> @petstore/persistence-typeorm',
        'adapters-stay-apart: http-koa/src/bad.ts -> @petstore/app',
        'adapters-stay-apart: persistence-typeorm/src/bad.ts -> @petstore/rate-limit-redis',
        'only-app-wires-adapters: bench/src/bad.ts -> @petstore/http-koa',
        'client-stands-alone: client/src/bad.ts -> crypto',
        'client-stands-alone: client/src/bad.ts -> @petstore/core',
        'client-stands-alone: client/src/bad.ts -> standardwebhooks',
        'client-webhooks-apart: client/src/webhooks.ts -> crypto',
        'opentelemetry-only-in-tracing: app/src/bad.ts -> @opentelemetry/api',
        'opentelemetry-only-in-tracing: app/src/bad.ts -> import-in-the-middle',
        'tracing-loaded-on-demand: app/src/bad.ts -> packages/app/src/tracing.ts',
      ].sort(),
    );
  }, 60_000);
});
