import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { eventually } from './eventually.js';
import { freePort } from './startPostgres.js';
import { redisServerBinary, startRedis, waitForPort } from './startRedis.js';

/** A Redis setup the server can be pointed at, as `@petstore/rate-limit-redis` and the environment name it. */
export interface RunningRedisTopology {
  kind: 'single' | 'cluster' | 'sentinel';
  /** The server's and the CLI's environment for it: REDIS_URL, REDIS_CLUSTER_NODES or REDIS_SENTINELS. */
  env: Record<string, string>;
  /** The same, as `createRedisClient` takes it. */
  topology:
    | { kind: 'single'; url: string }
    | { kind: 'cluster'; nodes: { host: string; port: number }[]; password?: string }
    | { kind: 'sentinel'; sentinels: { host: string; port: number }[]; masterName: string; password?: string; sentinelPassword?: string };
  /** Stops every process and deletes what they stored. */
  stop(): Promise<void>;
}

/** A setup with replicas: a master can be killed, and one of its replicas takes over. */
export interface RunningReplicatedRedis extends RunningRedisTopology {
  kind: 'cluster' | 'sentinel';
  /** The port of the master that holds `key` now. */
  masterOf(key: string): Promise<number>;
  /** SIGKILL to the master that holds `key`; resolves once it is dead. */
  killMasterOf(key: string): Promise<number>;
  /** Resolves once a replica has taken over from the master on `deadPort` and the setup serves every key again. */
  failedOver(deadPort: number, timeoutMs?: number): Promise<void>;
}

/** Sentinel: a master, its replica and 3 Sentinels. */
export interface RunningRedisSentinel extends RunningReplicatedRedis {
  kind: 'sentinel';
  /**
   * SIGSTOP to the first Sentinel of `topology.sentinels` (the one a client asks first): it accepts connections and
   * never answers; the others go on without it. Returns what resumes it (SIGCONT).
   */
  hangFirstSentinel(): () => void;
}

/** Passwords (and TLS) the setup requires: none by default. */
export interface RedisPasswords {
  /**
   * TLS only, on every node and Sentinel, with a certificate for 127.0.0.1 signed by a CA made for the setup: the env
   * sets REDIS_TLS=true and NODE_EXTRA_CA_CERTS to that CA, as an operator with a private CA would.
   */
  tls?: boolean;
  /** `requirepass` (and `masterauth`, for replication) on every Redis node: REDIS_PASSWORD. */
  password?: string;
  /** `requirepass` on every Sentinel (Sentinel setups only): REDIS_SENTINEL_PASSWORD. */
  sentinelPassword?: string;
}

/** How long a cluster node or a Sentinel waits before it calls a silent master down: failovers take a few seconds. */
const NODE_TIMEOUT_MS = 1_000;
const MASTER_NAME = 'petstore';

const run = promisify(execFile);

export function redisCliBinary(): string | null {
  const server = redisServerBinary();
  const beside = server ? join(dirname(server), 'redis-cli') : null;
  return beside && existsSync(beside) ? beside : null;
}

export function redisSentinelBinary(): string | null {
  const server = redisServerBinary();
  const beside = server ? join(dirname(server), 'redis-sentinel') : null;
  return beside && existsSync(beside) ? beside : null;
}

/** How a setup's processes and redis-cli reach each other: a password, and TLS with the setup's CA. */
interface Access {
  password: string | undefined;
  tls: Certificates | null;
}

/** One redis-cli command against a loopback port, signed in with the password when there is one; its reply as text. */
async function redisCli(port: number, { password, tls }: Access, ...args: string[]): Promise<string> {
  const auth = [...(password ? ['-a', password, '--no-auth-warning'] : []), ...(tls ? ['--tls', '--cacert', tls.ca] : [])];
  const { stdout } = await run(redisCliBinary()!, ['-h', '127.0.0.1', '-p', String(port), ...auth, ...args], { encoding: 'utf8' });
  return stdout.trim();
}

/** A CA made for one setup, and a certificate for 127.0.0.1 that it signed (files in `dir`). */
interface Certificates {
  ca: string;
  cert: string;
  key: string;
}

async function makeCertificates(dir: string): Promise<Certificates> {
  const [ca, caKey, cert, key, request, extensions] = ['ca.crt', 'ca.key', 'node.crt', 'node.key', 'node.csr', 'node.ext'].map((file) =>
    join(dir, file),
  );
  const openssl = (...args: string[]) => run('openssl', args);
  await openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', caKey!, '-out', ca!, '-days', '2', '-subj', '/CN=petstore test CA');
  await openssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', key!, '-out', request!, '-subj', '/CN=127.0.0.1');
  writeFileSync(extensions!, 'subjectAltName=IP:127.0.0.1\n');
  await openssl(
    'x509',
    '-req',
    '-in',
    request!,
    '-CA',
    ca!,
    '-CAkey',
    caKey!,
    '-CAcreateserial',
    '-out',
    cert!,
    '-days',
    '2',
    '-extfile',
    extensions!,
  );
  return { ca: ca!, cert: cert!, key: key! };
}

/** TLS only on the port (no plain one), without client certificates; replication (and Sentinel's links) over TLS too. */
const tlsArgs = (tls: Certificates | null) =>
  tls
    ? ['--tls-cert-file', tls.cert, '--tls-key-file', tls.key, '--tls-ca-cert-file', tls.ca, '--tls-auth-clients', 'no', '--tls-replication', 'yes']
    : [];

/** The node listens on `port`: plain, or TLS only. */
const portArgs = (port: number, tls: Certificates | null) => (tls ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)]);

/** What the server's environment needs to trust the setup's CA. */
const tlsEnv = (tls: Certificates | null): Record<string, string> => (tls ? { REDIS_TLS: 'true', NODE_EXTRA_CA_CERTS: tls.ca } : {});

/** Sets the password on a node and lets it replicate from a master that has the same one. */
const passwordArgs = (password: string | undefined) => (password ? ['--requirepass', password, '--masterauth', password] : []);

/** Processes started for one setup, and the directory that holds their files. */
class Processes {
  readonly dir = mkdtempSync(join(tmpdir(), 'petstore-redis-'));
  private readonly children = new Map<number, ChildProcess>();

  async start(binary: string, port: number, args: string[]): Promise<void> {
    const child = spawn(binary, args, { stdio: 'ignore', cwd: this.dir });
    this.children.set(port, child);
    await waitForPort(port, child);
  }

  signal(port: number, signal: 'SIGSTOP' | 'SIGCONT'): void {
    this.children.get(port)?.kill(signal);
  }

  async kill(port: number): Promise<void> {
    const child = this.children.get(port);
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.children.keys()].map((port) => this.kill(port)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const serverArgs = (port: number, tls: Certificates | null = null) => [
  ...portArgs(port, tls),
  ...tlsArgs(tls),
  '--bind',
  '127.0.0.1',
  '--save',
  '',
  '--appendonly',
  'no',
  '--protected-mode',
  'yes',
];

/** A single redis-server, as a topology. Null when redis-server is not installed. */
export async function startSingleRedis(): Promise<RunningRedisTopology | null> {
  const redis = await startRedis();
  if (!redis) return null;
  return { kind: 'single', env: { REDIS_URL: redis.url }, topology: { kind: 'single', url: redis.url }, stop: () => redis.stop() };
}

interface ClusterNode {
  port: number;
  role: 'master' | 'slave';
  failed: boolean;
  /** Slot ranges: [from, to], or [slot] for one. */
  slots: number[][];
}

/** CLUSTER NODES, as one node sees it. */
async function clusterNodes(port: number, access: Access): Promise<ClusterNode[]> {
  return (await redisCli(port, access, 'cluster', 'nodes')).split('\n').map((line) => {
    const [, address, flags, , , , , , ...slots] = line.split(' ');
    return {
      port: Number(/:(\d+)@/.exec(address!)![1]),
      role: flags!.includes('master') ? 'master' : 'slave',
      failed: flags!.includes('fail'),
      slots: slots.filter((s) => /^\d/.test(s)).map((s) => s.split('-').map(Number)),
    };
  });
}

/**
 * A Redis Cluster of 3 masters, each with one replica, on free loopback ports (redis-server --cluster-enabled,
 * built by redis-cli --cluster create), with a 1 s node timeout so that a replica takes over within seconds.
 * Null when redis-server or redis-cli is not installed.
 */
export async function startRedisCluster({ password, tls: withTls }: RedisPasswords = {}): Promise<RunningReplicatedRedis | null> {
  const server = redisServerBinary();
  if (!server || !redisCliBinary()) return null;
  const processes = new Processes();
  try {
    const tls = withTls ? await makeCertificates(processes.dir) : null;
    const access: Access = { password, tls };
    const free = await distinctFreePorts(12);
    const [ports, busPorts] = [free.slice(0, 6), free.slice(6)];
    await Promise.all(
      ports.map((port, i) =>
        processes.start(server, port, [
          ...serverArgs(port, tls),
          ...passwordArgs(password),
          ...(tls ? ['--tls-cluster', 'yes'] : []),
          '--cluster-enabled',
          'yes',
          '--cluster-config-file',
          join(processes.dir, `nodes-${port}.conf`),
          // The cluster bus: by default the port + 10000, which may be taken or beyond 65535.
          '--cluster-port',
          String(busPorts[i]),
          '--cluster-node-timeout',
          String(NODE_TIMEOUT_MS),
          '--dir',
          processes.dir,
        ]),
      ),
    );
    await run(redisCliBinary()!, [
      '--cluster',
      'create',
      ...ports.map((port) => `127.0.0.1:${port}`),
      '--cluster-replicas',
      '1',
      '--cluster-yes',
      ...(password ? ['-a', password, '--no-auth-warning'] : []),
      ...(tls ? ['--tls', '--cacert', tls.ca] : []),
    ]);
    const cli = (port: number, ...args: string[]) => redisCli(port, access, ...args);
    const nodesSeenBy = (port: number) => clusterNodes(port, access);
    const alive = new Set(ports);
    const anyAlive = () => [...alive][0]!;
    const serving = async () => {
      for (const port of alive) {
        if (!(await cli(port, 'cluster', 'info')).includes('cluster_state:ok')) return false;
        const nodes = await nodesSeenBy(port);
        if (nodes.filter((node) => node.role === 'master' && !node.failed && node.slots.length > 0).length !== 3) return false;
      }
      return true;
    };
    // Serving, and every replica has its master's data: each can take over.
    const replicated = async () => {
      const replicas = (await nodesSeenBy(ports[0]!)).filter((node) => node.role === 'slave');
      for (const { port } of replicas) if (!(await cli(port, 'info', 'replication')).includes('master_link_status:up')) return false;
      return replicas.length === 3 && serving();
    };
    await eventually(replicated, { timeoutMs: 30_000, intervalMs: 100 });
    const masterOf = async (key: string) => {
      const slot = Number(await cli(anyAlive(), 'cluster', 'keyslot', key));
      const nodes = await nodesSeenBy(anyAlive());
      const master = nodes.find(
        (node) => node.role === 'master' && !node.failed && node.slots.some(([from, to]) => slot >= from! && slot <= (to ?? from!)),
      );
      if (!master) throw new Error(`no master serves slot ${slot} of ${key}`);
      return master.port;
    };
    return {
      kind: 'cluster',
      env: { REDIS_CLUSTER_NODES: ports.map((port) => `127.0.0.1:${port}`).join(','), ...(password && { REDIS_PASSWORD: password }), ...tlsEnv(tls) },
      topology: { kind: 'cluster', nodes: ports.map((port) => ({ host: '127.0.0.1', port })), ...(password && { password }) },
      masterOf,
      killMasterOf: async (key) => {
        const port = await masterOf(key);
        alive.delete(port);
        await processes.kill(port);
        return port;
      },
      failedOver: async (deadPort, timeoutMs = 30_000) => {
        const deadIsNoMaster = async () =>
          !(await nodesSeenBy(anyAlive())).some((node) => node.port === deadPort && node.role === 'master' && !node.failed);
        await eventually(async () => (await serving()) && deadIsNoMaster(), { timeoutMs, intervalMs: 100 });
      },
      stop: () => processes.stopAll(),
    };
  } catch (error) {
    await processes.stopAll();
    throw error;
  }
}

/**
 * Redis Sentinel: a master, its replica and 3 Sentinels (quorum 2) on free loopback ports, watching the master
 * under the name `petstore` and calling it down after 1 s of silence. Null when redis-server, redis-cli or
 * redis-sentinel is not installed.
 */
export async function startRedisSentinel({ password, sentinelPassword, tls: withTls }: RedisPasswords = {}): Promise<RunningRedisSentinel | null> {
  const server = redisServerBinary();
  const sentinel = redisSentinelBinary();
  if (!server || !sentinel || !redisCliBinary()) return null;
  const processes = new Processes();
  try {
    const [master, replica, ...sentinels] = await distinctFreePorts(5);
    const tls = withTls ? await makeCertificates(processes.dir) : null;
    const cli = (port: number, ...args: string[]) => redisCli(port, { password, tls }, ...args);
    const sentinelCli = (port: number, ...args: string[]) => redisCli(port, { password: sentinelPassword, tls }, ...args);
    await processes.start(server, master!, [...serverArgs(master!, tls), ...passwordArgs(password)]);
    await processes.start(server, replica!, [...serverArgs(replica!, tls), ...passwordArgs(password), '--replicaof', '127.0.0.1', String(master)]);
    await eventually(async () => (await cli(replica!, 'info', 'replication')).includes('master_link_status:up'), { timeoutMs: 10_000 });
    await Promise.all(
      sentinels.map((port) => {
        const config = join(processes.dir, `sentinel-${port}.conf`);
        writeFileSync(
          config,
          [
            ...(tls
              ? ['port 0', `tls-port ${port}`, `tls-cert-file ${tls.cert}`, `tls-key-file ${tls.key}`, `tls-ca-cert-file ${tls.ca}`]
              : [`port ${port}`]),
            // Sentinels reach the master, the replica and each other over TLS too.
            ...(tls ? ['tls-auth-clients no', 'tls-replication yes'] : []),
            'bind 127.0.0.1',
            `dir ${processes.dir}`,
            `sentinel monitor ${MASTER_NAME} 127.0.0.1 ${master} 2`,
            `sentinel down-after-milliseconds ${MASTER_NAME} ${NODE_TIMEOUT_MS}`,
            `sentinel failover-timeout ${MASTER_NAME} 10000`,
            ...(password ? [`sentinel auth-pass ${MASTER_NAME} ${password}`] : []),
            // A Sentinel with a password signs in to the others with it.
            ...(sentinelPassword ? [`requirepass ${sentinelPassword}`, `sentinel sentinel-pass ${sentinelPassword}`] : []),
            '',
          ].join('\n'),
        );
        return processes.start(sentinel, port, [config]);
      }),
    );
    const sentinelMaster = async (port: number) => {
      const fields = (await sentinelCli(port, 'sentinel', 'master', MASTER_NAME)).split('\n');
      const field = (name: string) => fields[fields.indexOf(name) + 1];
      return {
        port: Number(field('port')),
        flags: field('flags') ?? '',
        otherSentinels: Number(field('num-other-sentinels')),
        replicas: Number(field('num-slaves')),
      };
    };
    // Every Sentinel knows the others and the replica: a failover can be agreed on.
    await eventually(
      async () => {
        for (const port of sentinels) {
          const seen = await sentinelMaster(port);
          if (seen.otherSentinels !== 2 || seen.replicas !== 1) return false;
        }
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
    const hung = new Set<number>();
    const answering = () => sentinels.filter((port) => !hung.has(port));
    const masterOf = async () => (await sentinelMaster(answering()[0]!)).port;
    return {
      kind: 'sentinel',
      env: {
        REDIS_SENTINELS: sentinels.map((port) => `127.0.0.1:${port}`).join(','),
        REDIS_SENTINEL_MASTER: MASTER_NAME,
        ...(password && { REDIS_PASSWORD: password }),
        ...(sentinelPassword && { REDIS_SENTINEL_PASSWORD: sentinelPassword }),
        ...tlsEnv(tls),
      },
      topology: {
        kind: 'sentinel',
        sentinels: sentinels.map((port) => ({ host: '127.0.0.1', port })),
        masterName: MASTER_NAME,
        ...(password && { password }),
        ...(sentinelPassword && { sentinelPassword }),
      },
      masterOf,
      killMasterOf: async () => {
        const port = await masterOf();
        await processes.kill(port);
        return port;
      },
      failedOver: async (deadPort, timeoutMs = 30_000) => {
        await eventually(
          async () => {
            for (const port of answering()) {
              const seen = await sentinelMaster(port);
              if (seen.port === deadPort || seen.flags !== 'master') return false;
            }
            return (await cli(await masterOf(), 'role')).startsWith('master');
          },
          { timeoutMs, intervalMs: 100 },
        );
      },
      hangFirstSentinel: () => {
        const first = sentinels[0]!;
        hung.add(first);
        processes.signal(first, 'SIGSTOP');
        return () => {
          processes.signal(first, 'SIGCONT');
          hung.delete(first);
        };
      },
      stop: () => processes.stopAll(),
    };
  } catch (error) {
    await processes.stopAll();
    throw error;
  }
}

/** Free ports, all different (each freePort call may hand back one just released). */
async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}
