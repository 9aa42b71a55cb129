/**
 * The settings docs/deployment.md recommends for a server in production, applied by the benchmark, the soak and the
 * profiler as an operator applies them: Node's options on its command line (Node refuses these V8 flags in
 * NODE_OPTIONS) and the rest in the environment. productionSettings.int.spec.ts checks that the page says the same.
 */
export interface NodeSettings {
  nodeArgs: readonly string[];
  env: Readonly<Record<string, string>>;
}

const NODE_FLAGS = ['--no-allocation-site-pretenuring', '--heap-growing-percent=25', '--min-semi-space-size=8'];

/** For a server on `databaseUrl` (SQLite when unset or empty, as in the server's configuration). */
export function productionSettings(databaseUrl: string | undefined): NodeSettings {
  const sqlite = (databaseUrl || 'sqlite:').startsWith('sqlite:');
  return {
    nodeArgs: NODE_FLAGS,
    // On SQLite, the young generation held at the 16 MB it starts with (docs/decisions/0036-node-settings-are-deployment.md).
    env: { MALLOC_ARENA_MAX: '1', ...(sqlite && { NODE_OPTIONS: '--max-semi-space-size=8' }) },
  };
}
