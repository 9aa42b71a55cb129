import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';

const MAIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'main.js');

/** Runs the built `pnpm bench` entry point with `args`: its exit code and stderr. */
function bench(...args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MAIN, ...args], { timeout: 30_000 }, (error, _stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stderr }),
    );
  });
}

describe('pnpm bench with a bad option', () => {
  it.each([
    [['--bogus'], "error: Unknown option '--bogus'"],
    [['--soak', '--minutes', 'abc'], 'error: --minutes must be a number of minutes from 1 to 1440 (got "abc")'],
    [['--soak', '--topology', 'bogus'], 'error: --topology must be one of single, scale-out (got "bogus")'],
  ])(
    '%j: one line naming it, the usage, and exit code 2',
    async (args, message) => {
      const { code, stderr } = await bench(...args);
      expect(code).toBe(2);
      expect(stderr.trim().split('\n')).toEqual([message, expect.stringMatching(/^usage: pnpm bench /)]);
    },
    30_000,
  );
});
