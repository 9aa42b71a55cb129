import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLI_BIN, eventually, SERVER_BIN } from '@petstore/test-support';

// The shim pnpm writes where a package depends on @petstore/app (the examples do), as it writes it for a user.
const PNPM_SHIM = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'node_modules', '.bin', 'petstore-server');

/** A `node` on PATH older than the supported ones (the system's Node 20 in CI and on the project's machines). */
function olderNode(): { path: string; version: string } | null {
  for (const directory of (process.env['PATH'] ?? '').split(delimiter)) {
    const path = join(directory, 'node');
    if (!existsSync(path)) continue;
    const version = spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 }).stdout.trim();
    if (Number(/^v(\d+)\./.exec(version)?.[1]) < 22) return { path, version };
  }
  return null;
}

describe('the server bin (petstore-server, pnpm start)', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-bin-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('is a plain Node script', () => {
    expect(readFileSync(SERVER_BIN, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
    expect(readFileSync(CLI_BIN, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/);
  });

  it.each([
    ['the bin itself (pnpm start, npm’s link)', SERVER_BIN],
    ['the shim pnpm installs for it', PNPM_SHIM],
  ])(
    '%s starts the server on Node with no options of its own, and stops on SIGTERM',
    async (_, command) => {
      const child = spawn(command, [], {
        // `env` in the bin finds this Node first.
        env: {
          PATH: `${dirname(process.execPath)}${delimiter}${process.env['PATH']}`,
          PORT: '0',
          DATABASE_URL: `sqlite:${join(work, 'petstore.db')}`,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      try {
        await eventually(() => output.includes('Pet store listening on'), { timeoutMs: 30_000 });
        const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        expect(commandLine).toEqual([expect.stringMatching(/node$/), expect.any(String)]);
        expect(realpathSync(`/proc/${child.pid}/exe`)).toBe(realpathSync(process.execPath));
        expect(realpathSync(commandLine[1]!)).toBe(realpathSync(SERVER_BIN));
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    },
    60_000,
  );

  // Where no older Node is on PATH (CI's machine has Node 20), supportedNode.spec.ts still checks the rule.
  const older = olderNode();
  (older === null ? it.skip.each : it.each)([
    ['petstore-server', SERVER_BIN, []],
    ['petstore', CLI_BIN, ['keys', 'list']],
  ])('%s exits at once on an older Node, naming the supported versions', (_, bin, args) => {
    const run = spawnSync(older!.path, [bin, ...args], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env['PATH'], DATABASE_URL: `sqlite:${join(work, 'never.db')}`, PORT: '0' },
    });
    expect(run).toMatchObject({
      status: 1,
      stdout: '',
      stderr: `This is Node.js ${older!.version.slice(1)}; the pet store needs Node.js 22.12 or later: 22, 24 or 26 (26 recommended).\n`,
    });
    expect(existsSync(join(work, 'never.db'))).toBe(false);
  });
});
