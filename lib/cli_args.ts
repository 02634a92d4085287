// What the `parley` subcommands share: the usage error, the output streams, flag parsing and
// opening the database.
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { ChatOptions, ChatServer } from './index.js';
import { jsonLogger } from './context.js';

export class UsageError extends Error {}

export interface Io {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parse(args: string[], options: Options) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values as Record<string, string | boolean | undefined>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

// Loaded on first use: `--help` and argument errors answer without loading the whole server.
export async function openChat(file: string, options: ChatOptions = {}): Promise<{ db: { close(): void }; chat: ChatServer }> {
  const [{ default: Database }, { createChatServer }] = await Promise.all([import('better-sqlite3'), import('./index.js')]);
  const db = new Database(file);
  return { db, chat: createChatServer(db, { logger: jsonLogger, ...options }) };
}
