import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { productionSettings } from './productionSettings.js';

const deploymentPage = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'deployment.md'), 'utf8');

/** The command line docs/deployment.md gives for a server on `database`, as environment, Node's options and entry. */
function documentedCommand(database: 'SQLite' | 'PostgreSQL') {
  const line = new RegExp(`^# ${database}\\n(.*)$`, 'm').exec(deploymentPage)?.[1];
  if (line === undefined) throw new Error(`docs/deployment.md gives no command line under "# ${database}"`);
  const words = line.split(' ');
  const node = words.indexOf('node');
  return {
    env: Object.fromEntries(words.slice(0, node).map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)])),
    nodeArgs: words.slice(node + 1, -1),
    entry: words.at(-1),
  };
}

describe('the production settings the benchmark and the soak apply', () => {
  it.each([
    ['SQLite', 'sqlite:/var/lib/petstore/petstore.db'],
    ['SQLite', undefined],
    ['PostgreSQL', 'postgres://petstore@db.internal/petstore'],
  ] as const)('are the ones docs/deployment.md gives for %s (DATABASE_URL %s)', (database, databaseUrl) => {
    expect(documentedCommand(database)).toEqual({
      ...productionSettings(databaseUrl),
      entry: 'node_modules/@petstore/app/bin/petstore-server.js',
    });
  });

  // An unknown V8 flag on the command line stops Node, and NODE_OPTIONS takes only the flags it allows.
  it.each(['sqlite:', 'postgres://petstore@db.internal/petstore'])('are accepted by this Node (DATABASE_URL %s)', (databaseUrl) => {
    const { nodeArgs, env } = productionSettings(databaseUrl);
    const run = spawnSync(process.execPath, [...nodeArgs, '-e', ''], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { PATH: process.env['PATH'], ...env },
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
  });
});
