import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LoadedModulesProbe {
  /** Put into the process's NODE_OPTIONS. */
  nodeOptions: string;
  /** What the process loaded so far: the URL of every ES module it resolved, the path of every CommonJS module at exit. */
  loaded(): string[];
}

/** Records every module a Node process loads: ES modules from a loader hook as they resolve, CommonJS ones at exit. */
export function loadedModulesProbe(dir: string): LoadedModulesProbe {
  const record = join(dir, 'loaded-modules.txt');
  const probe = join(dir, 'loaded-modules-probe.mjs');
  const hooks = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(record)}, resolved.url + '\\n');
  return resolved;
}`;
  writeFileSync(record, '');
  writeFileSync(
    probe,
    `import { register, createRequire } from 'node:module';
import { appendFileSync } from 'node:fs';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hooks)}));
const cache = createRequire(import.meta.url).cache;
process.on('exit', () => appendFileSync(${JSON.stringify(record)}, Object.keys(cache).join('\\n') + '\\n'));
`,
  );
  return {
    nodeOptions: `--import=${probe}`,
    loaded: () => [...new Set(readFileSync(record, 'utf8').split('\n').filter(Boolean))],
  };
}
