import { execFileSync, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@petstore/test-support';

/** The haproxy binary: $HAPROXY, then the PATH, then where Debian installs it (/usr/sbin is not on every PATH). */
export function haproxyBinary(): string | null {
  for (const candidate of [process.env['HAPROXY'], '/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  try {
    return execFileSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

export const HAPROXY_MISSING =
  'The soak runs two instances behind a round-robin proxy, haproxy, which is not installed.\n' +
  'On Debian or Ubuntu: apt-get install haproxy (or set HAPROXY=/path/to/haproxy).';

export interface RunningProxy {
  port: number;
  stop(): Promise<void>;
}

/**
 * The load balancer of the deployment: round robin over the instances, health-checked on /livez every second
 * (down after 2 failures, up after 2 successes). A refused connection is retried on the other instance (`retries`,
 * `option redispatch`); a request in flight on an instance that dies is answered 502, since whether it took effect
 * is unknown. It routes on /livez, not /readyz: a shared dependency that is down is down for every instance, and
 * each instance answers that itself (503 with Retry-After), which the proxy's own 503 would not.
 */
function haproxyConfig(port: number, instances: readonly { name: string; port: number }[]): string {
  return [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  retries 3',
    '  option redispatch 1',
    '  option forwardfor',
    'frontend api',
    `  bind 127.0.0.1:${port}`,
    '  default_backend instances',
    'backend instances',
    '  balance roundrobin',
    '  option httpchk GET /livez',
    '  http-check expect status 200',
    ...instances.map((instance) => `  server ${instance.name} 127.0.0.1:${instance.port} check inter 1s fall 2 rise 2`),
    '',
  ].join('\n');
}

/** Starts haproxy on `port` in front of `instances` (already listening) and waits until it routes to them. */
export async function startRoundRobinProxy(
  binary: string,
  dir: string,
  port: number,
  instances: readonly { name: string; port: number }[],
): Promise<RunningProxy> {
  const config = join(dir, 'haproxy.cfg');
  writeFileSync(config, haproxyConfig(port, instances));
  const child = spawn(binary, ['-db', '-f', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`haproxy exited with code ${child.exitCode}:\n${stderr}`);
      return (await fetch(`http://127.0.0.1:${port}/livez`).catch(() => null))?.status === 200;
    },
    { timeoutMs: 20_000 },
  ).catch(async (error: unknown) => {
    await stop();
    throw error;
  });
  return { port, stop };
}
