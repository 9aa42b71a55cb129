// attw's check of every tarball given, in one process: `attw <tarball> --ignore-rules cjs-resolves-to-esm` for each,
// but TypeScript loaded once (the CLI loads it for every tarball: 20 CPU-s for the seven packages, against 4 here).
// A tarball with a problem is handed to the CLI, which prints its table of problems and fails.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';

const cliManifest = createRequire(import.meta.url).resolve('@arethetypeswrong/cli/package.json');
const cli = join(dirname(cliManifest), JSON.parse(await readFile(cliManifest, 'utf8')).bin.attw);
// attw does not model Node's require() of ES modules: scripts/lint-packages.sh.
const ignoredRule = { flag: 'cjs-resolves-to-esm', kind: 'CJSResolvesToESM' };

let failed = false;
for (const tarball of process.argv.slice(2)) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(await readFile(tarball))));
  const problems = analysis.types ? analysis.problems.filter((problem) => problem.kind !== ignoredRule.kind) : [];
  if (problems.length === 0) continue;
  failed = true;
  spawnSync(process.execPath, [cli, tarball, '--ignore-rules', ignoredRule.flag], { stdio: 'inherit' });
}
if (failed) process.exitCode = 1;
