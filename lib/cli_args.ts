// Argument handling of the `parley` command: flags, environment variables and secrets read from
// files, each refused with a UsageError (exit code 2) that names where the bad value came from.
import { readFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ChatOptions, ChatServer } from './index.js';
import { jsonLogger } from './logger.js';

export class UsageError extends Error {}

export interface Io {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
}

export const processIo: Io = {
  out: (line) => process.stdout.write(line + '\n'),
  err: (line) => process.stderr.write(line + '\n'),
  env: process.env,
};

export type Values = Record<string, string | boolean | undefined>;

export function parse(args: string[], options: NonNullable<ParseArgsConfig['options']>): Values {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Values;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function integer(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} must be a non-negative integer, not '${value}'`);
  return Number(value);
}

/** An environment variable, blank counting as unset. */
export function fromEnv(io: Io, name: string): string | undefined {
  const value = io.env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

/** A variable that turns something on (`1`) or off (`0`, or unset). */
export function switchFromEnv(io: Io, name: string): boolean {
  const value = fromEnv(io, name);
  if (value === undefined || value === '0') return false;
  if (value === '1') return true;
  throw new UsageError(`${name} must be 1 or 0, not '${value}'`);
}

/**
 * A secret given as `--NAME VALUE` (visible to other local users in the process list), as
 * `--NAME-file FILE` (its content, without one final line break) or in the variable `envName`.
 * Returns the value and where it came from, for messages that must never show the value.
 */
export function secret(values: Values, io: Io, name: string, envName: string): { value: string; from: string } | undefined {
  const inline = values[name] as string | undefined;
  const file = values[`${name}-file`] as string | undefined;
  if (inline !== undefined && file !== undefined) throw new UsageError(`--${name} and --${name}-file are exclusive`);
  if (inline !== undefined) return { value: inline, from: `--${name}` };
  if (file !== undefined) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`cannot read --${name}-file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    return { value: text.replace(/\r?\n$/, ''), from: `--${name}-file` };
  }
  // A blank variable counts as unset; a set one is taken as it is (a secret may have spaces).
  return fromEnv(io, envName) === undefined ? undefined : { value: io.env[envName]!, from: envName };
}

// Loaded on first use: `--help` and argument errors answer without loading the whole server.
export async function openChat(file: string, options: ChatOptions = {}): Promise<{ db: { close(): void }; chat: ChatServer }> {
  const [{ default: Database }, { createChatServer }] = await Promise.all([import('better-sqlite3'), import('./index.js')]);
  const db = new Database(file);
  return { db, chat: createChatServer(db, { logger: jsonLogger, ...options }) };
}
