import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { eventually, SERVER_BIN, SERVER_NODE_ENV, SERVER_NODE_FLAGS } from '@petstore/test-support';

// The shim pnpm writes where a package depends on @petstore/app (the examples do), as it writes it for a user.
const PNPM_SHIM = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'examples', 'node_modules', '.bin', 'petstore-server');

describe('the server bin (petstore-server, pnpm start)', () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'petstore-bin-'));
  });
  afterAll(async () => {
    await rm(work, { recursive: true, force: true });
  });

  // On the command line an unknown V8 flag stops Node, so a Node whose V8 renamed one would not start the server.
  it("names V8 flags that this Node's V8 knows", () => {
    expect(SERVER_NODE_FLAGS).toEqual(['--no-allocation-site-pretenuring', '--heap-growing-percent=25', '--min-semi-space-size=8']);
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', ''], { encoding: 'utf8', timeout: 30_000 });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it.each([
    ['the bin itself (pnpm start, npm’s link)', SERVER_BIN],
    ['the shim pnpm installs for it', PNPM_SHIM],
  ])(
    '%s starts the server under Node with those flags and one malloc arena, and stops on SIGTERM',
    async (_, command) => {
      const child = spawn(command, [], {
        // `env` in the bin finds this Node first.
        env: { PATH: `${dirname(process.execPath)}:${process.env['PATH']}`, PORT: '0', DATABASE_URL: `sqlite:${join(work, 'petstore.db')}` },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      try {
        await eventually(() => output.includes('Pet store listening on'), { timeoutMs: 30_000 });
        const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        expect(commandLine.slice(0, -1)).toEqual([expect.stringMatching(/node$/), ...SERVER_NODE_FLAGS]);
        expect(realpathSync(commandLine.at(-1)!)).toBe(realpathSync(SERVER_BIN));
        expect(SERVER_NODE_ENV).toEqual({ MALLOC_ARENA_MAX: '1' });
        const environment = readFileSync(`/proc/${child.pid}/environ`, 'utf8').split('\0');
        expect(environment).toContain('MALLOC_ARENA_MAX=1');
      } finally {
        child.kill('SIGTERM');
      }
      expect(await exited).toBe(0);
    },
    60_000,
  );
});
