import type { DrillWindow } from './checks.js';
import { banRecordOf, type Deployment, type Instance } from './deployment.js';
import { sampleInstance } from './sampler.js';
import type { PlannedDrill, SoakPlan } from './schedule.js';

export interface DrillReport extends DrillWindow {
  /** From the dependency's return (the restart) to the first request served again, in ms; null if never. */
  recoveryMs: number | null;
  /** The surviving instances serve again without a restart: same process, /readyz 200. */
  reconnected: boolean;
  detail: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Polls every 100 ms until `served()` is true, for at most `limitMs`; returns the time it took, or null. */
async function timeUntil(served: () => Promise<boolean>, limitMs: number): Promise<number | null> {
  const from = Date.now();
  while (Date.now() - from < limitMs) {
    if (await served().catch(() => false)) return Date.now() - from;
    await sleep(100);
  }
  return null;
}

async function processStart(instance: Instance): Promise<number | null> {
  return (await sampleInstance(instance.metricsPort))?.startedAt ?? null;
}

/** Every instance answers /readyz 200 (its database and Redis connections work) and is the process it was before. */
async function reconnectedWithoutRestart(instances: readonly Instance[], startedBefore: readonly (number | null)[]): Promise<boolean> {
  for (const [i, instance] of instances.entries()) {
    const ready = await timeUntil(async () => (await fetch(`http://127.0.0.1:${instance.port}/readyz`)).status === 200, 10_000);
    if (ready === null || (await processStart(instance)) !== startedBefore[i]) return false;
  }
  return true;
}

/**
 * Runs one drill at its planned time (`at(ms)` is the time since the load started): takes the dependency away for
 * the planned outage, brings it back, and measures how long until the service serves again. The instance drill kills
 * the second instance with SIGKILL and restarts it at once, as an orchestrator would (its outage is its own start-up);
 * its recovery is the time until the proxy routes requests to it again. The failover drill kills (SIGKILL) the Redis
 * Cluster master that holds the load key's counters and leaves it dead: the dependency is back when its replica has
 * taken over and the cluster serves every slot. The PgBouncer drill stops PgBouncer (SIGTERM: it closes every client
 * and server connection at once) and starts it again on the same port at once. Returns once the dependency has been
 * back for the grace; the window it reports may run on (a restarted instance's warm-up).
 */
export async function runDrill(drill: PlannedDrill, deployment: Deployment, elapsed: () => number, plan: SoakPlan): Promise<DrillReport> {
  const { graceMs } = plan;
  await sleep(drill.startMs - elapsed());
  const [a, b] = deployment.instances;
  const startedBefore = await Promise.all([processStart(a), processStart(b)]);
  const proxied = async () =>
    (await fetch(`http://127.0.0.1:${deployment.proxyPort}/v1/pets?limit=1`, { headers: { Authorization: `Bearer ${deployment.keys.load}` } }))
      .status === 200;
  const startMs = elapsed();
  let backMs: number;
  let recoveryMs: number | null;
  let reconnected: boolean;
  let what: string;
  if (drill.kind === 'instance') {
    await b.stop('SIGKILL');
    await sleep(drill.outageMs);
    await b.start();
    backMs = elapsed();
    recoveryMs = await timeUntil(async () => ((await sampleInstance(b.metricsPort))?.requestsTotal ?? 0) > 0, graceMs + 30_000);
    reconnected = await reconnectedWithoutRestart([a], [startedBefore[0]!]);
    what = 'instance b killed (SIGKILL) and restarted at once';
  } else {
    what = await takeAway(drill, deployment);
    backMs = elapsed();
    recoveryMs = await timeUntil(proxied, graceMs + 30_000);
    reconnected = await reconnectedWithoutRestart([a, b], startedBefore);
  }
  await sleep(backMs + graceMs - elapsed());
  // A restarted instance starts cold, like the two at the start of the run: its warm-up (a block) is in the window.
  const windowEndMs = Math.max(backMs + (drill.kind === 'instance' ? Math.max(graceMs, plan.blockSlices * plan.sliceMs) : graceMs), elapsed());
  return {
    kind: drill.kind,
    startMs,
    backMs,
    windowEndMs,
    recoveryMs,
    reconnected,
    detail: `${what} at ${(startMs / 1000).toFixed(1)} s for ${((backMs - startMs) / 1000).toFixed(1)} s; served again ${recoveryMs === null ? 'never' : `${(recoveryMs / 1000).toFixed(2)} s`} after its return`,
  };
}

/** Takes a shared dependency away and brings it back (or waits until its replica has taken over); says what it did. */
async function takeAway(drill: PlannedDrill, deployment: Deployment): Promise<string> {
  const restart = async (server: { pause(): Promise<void>; start(): Promise<void> }) => {
    await server.pause();
    await sleep(drill.outageMs);
    await server.start();
  };
  const needs = (topology: Deployment['topology']) => new Error(`the ${drill.kind} drill needs the ${topology} topology`);
  switch (drill.kind) {
    case 'redis':
      if (deployment.topology !== 'single') throw needs('single');
      await restart(deployment.redis);
      return 'Redis stopped';
    case 'postgres':
      await restart(deployment.postgres);
      return 'PostgreSQL stopped';
    case 'pgbouncer':
      if (deployment.topology !== 'scale-out') throw needs('scale-out');
      await restart(deployment.pgbouncer);
      return 'PgBouncer stopped (SIGTERM) and restarted';
    case 'redis-failover': {
      if (deployment.topology !== 'scale-out') throw needs('scale-out');
      const dead = await deployment.redisCluster.killMasterOf(banRecordOf(deployment.keys.loadId));
      await deployment.redisCluster.failedOver(dead, 60_000);
      return `Redis Cluster master :${dead} (the load key's) killed (SIGKILL) until its replica took over`;
    }
    case 'instance':
      throw new Error('the instance drill takes no shared dependency away');
  }
}
