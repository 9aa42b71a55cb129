import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startPostgres, startRedis } from '@petstore/test-support';
import type { Started } from './processes.js';

/** A product server of the baseline build, with the key that reads its data. */
export interface BaselineServer {
  server: Started;
  key: string;
}

/**
 * Another build of the product (`--baseline <checkout>`: a checkout of another commit, installed and built), started
 * by that build's own benchmark code, seeded by its own seed code (its migrations), on data of its own: the same
 * pets, so that the same pages and changes apply to both builds.
 */
export interface Baseline {
  onSqlite(path: string, count: number): Promise<BaselineServer>;
  /** On a PostgreSQL and a Redis of its own, started here and stopped with the server. */
  onPostgresAndRedis(count: number): Promise<BaselineServer | null>;
}

interface BuildModules {
  startProductServer(env: Record<string, string>, pin?: boolean): Promise<Started>;
  seedSqlite(path: string, count: number): Promise<void>;
  seedPostgres(url: string, count: number): Promise<void>;
  benchKey(url: string): Promise<string>;
}

export async function loadBaseline(checkout: string, pin: boolean): Promise<Baseline> {
  const dist = join(checkout, 'packages', 'bench', 'dist');
  if (!existsSync(join(dist, 'benchServer.js')))
    throw new Error(`--baseline: ${dist}/benchServer.js not found (install and build that checkout first)`);
  const load = (file: string) => import(pathToFileURL(join(dist, file)).href);
  const build = { ...(await load('processes.js')), ...(await load('seed.js')) } as BuildModules;
  return {
    async onSqlite(path, count) {
      await build.seedSqlite(path, count);
      const key = await build.benchKey(`sqlite:${path}`);
      return { server: await build.startProductServer({ DATABASE_URL: `sqlite:${path}` }, pin), key };
    },
    async onPostgresAndRedis(count) {
      const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
      if (!postgres || !redis) {
        await Promise.all([postgres?.stop(), redis?.stop()]);
        return null;
      }
      await build.seedPostgres(postgres.url, count);
      const key = await build.benchKey(postgres.url);
      const server = await build.startProductServer({ DATABASE_URL: postgres.url, REDIS_URL: redis.url }, pin);
      const stop = async () => {
        await server.stop();
        await Promise.all([postgres.stop(), redis.stop()]);
      };
      return { server: { ...server, stop }, key };
    },
  };
}
