const USAGE =
  'usage: pnpm bench [--quick | --smoke] [--only name,name] [--no-pin] | pnpm bench --soak [--minutes N] [--topology single|scale-out] | pnpm bench --webhooks';

/** Runs `parse`; a bad option is one line and the usage on stderr, and exit code 2. */
export function orUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    process.stderr.write(`error: ${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}
