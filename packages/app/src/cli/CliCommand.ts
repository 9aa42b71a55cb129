import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { PetStore } from '@petstore/core';
import type { DataSource } from '@petstore/persistence-typeorm';
import type { Config } from '../config.js';
import { refuseRepeatedFlags, UsageError } from './flags.js';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/** What a command can open: the store's use cases and the database (each opened on first use), and the settings. */
export interface CliOpener {
  config: Config;
  petStore(): Promise<PetStore>;
  dataSource(): Promise<DataSource>;
}

/**
 * One command of the CLI, as an HTTP operation is declared: its name and help, how it reads its command line (a
 * usage error comes before anything is opened), what it uses (taken from the opener, so its file names the use cases
 * it calls and nothing else), and what it does. `run` returns the exit code.
 */
export interface CliCommand<Input, Uses> {
  /** The words after `petstore`: `keys create`, `migrate`. */
  name: string;
  help: string;
  /** The flag that carries the command's page cursor, for errors from core that name `cursor`. */
  cursorFlag?: string;
  input(args: string[]): Input;
  uses(open: CliOpener): Promise<Uses>;
  run(input: Input, uses: Uses, io: CliIo): Promise<number>;
}

/** A command whose uses are erased: what the dispatcher holds. */
export interface AnyCliCommand {
  name: string;
  help: string;
  cursorFlag?: string;
  execute(args: string[], open: CliOpener, io: CliIo): Promise<number>;
}

export function defineCommand<Input, Uses>({ input, uses, run, ...description }: CliCommand<Input, Uses>): AnyCliCommand {
  return {
    ...description,
    async execute(args, open, io) {
      const read = input(args);
      return run(read, await uses(open), io);
    },
  };
}

const JSON_OPTION = { json: { type: 'boolean' } } as const;

type FlagOptions = NonNullable<ParseArgsConfig['options']>;
type StrictConfig<O extends FlagOptions> = { args: string[]; options: O & typeof JSON_OPTION; allowPositionals: true; strict: true; tokens: true };

/** The command's flags (and --json) and its positional arguments; an unknown or repeated flag is a usage error. */
export function parseFlags<O extends FlagOptions>(args: string[], options: O): ReturnType<typeof parseArgs<StrictConfig<O>>> {
  const parsed = parseArgs({ args, options: { ...options, ...JSON_OPTION }, allowPositionals: true, strict: true, tokens: true });
  refuseRepeatedFlags(parsed.tokens);
  return parsed;
}

export function exactlyOneId(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new UsageError(`${command} takes exactly one key id`);
  return positionals[0]!;
}

export function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
}

export const asJson = (value: unknown) => JSON.stringify(value, null, 2);
