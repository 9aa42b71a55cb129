// Runs `pnpm build` only when a package's sources are newer than its last build, or a build newer than the bins'
// bundles, so `pnpm start` and `pnpm keys` start at once when the build is current (tsc -b takes seconds even when it
// has nothing to do).
import { execSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');

function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    // Tests and test helpers are not part of the build: editing them makes nothing stale.
    if (!entry.isFile() || entry.name.endsWith('.spec.ts') || entry.parentPath.includes('testing')) continue;
    newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

function builtAt(pkg) {
  try {
    return statSync(join(root, 'packages', pkg, 'dist', '.tsbuildinfo')).mtimeMs;
  } catch {
    return 0;
  }
}

function bundledAt() {
  try {
    return statSync(join(root, 'packages', 'app', 'dist', 'bundle', 'server.js')).mtimeMs;
  } catch {
    return 0;
  }
}

// Stale: a package's sources are newer than its build, or a build (say, `tsc -b` alone) newer than the bundles the
// bins run, which `pnpm build` makes after tsc.
const packages = readdirSync(join(root, 'packages'));
const stale =
  packages.some((pkg) => newestMtime(join(root, 'packages', pkg, 'src')) > builtAt(pkg)) || packages.some((pkg) => builtAt(pkg) > bundledAt());
if (stale) execSync('pnpm -s build', { cwd: root, stdio: 'inherit' });
