// The `parley user` subcommands: add, import, deactivate, reactivate, regenerate-api-key, set-password. Each opens the
// database, acts without permission checks (whoever can open the file owns the organization), and
// answers with exit code 0, 1 for a refusal (`parley: <message>` on stderr) or 2 for bad arguments.
import { readFileSync } from 'node:fs';
import { openChat, parse, parseWithPositionals, required, secret, UsageError, type Io } from './cli_args.js';
import { CsvError, csvRecord, parseCsv } from './csv.js';
import type { ChatServer, ImportedAccount } from './index.js';

/** The password of `init` and `user add` when neither --password nor --password-file is given. */
export const PASSWORD_ENV = 'PARLEY_PASSWORD';

async function userAdd(args: string[], io: Io): Promise<number> {
  const v = parse(args, {
    db: { type: 'string' },
    email: { type: 'string' },
    'full-name': { type: 'string' },
    password: { type: 'string' },
    'password-file': { type: 'string' },
    role: { type: 'string' },
    bot: { type: 'boolean' },
  });
  const file = required(v, 'db');
  const role = (v.role as string | undefined) ?? 'member';
  if (!['owner', 'admin', 'moderator', 'member', 'guest'].includes(role)) {
    throw new UsageError(`--role must be one of owner, admin, moderator, member, guest, not '${role}'`);
  }
  const email = required(v, 'email');
  const fullName = required(v, 'full-name');
  const password = secret(v, io, 'password', PASSWORD_ENV)?.value;
  const { db, chat } = await openChat(file);
  try {
    const credentials = await chat.admin.addUser({
      email,
      fullName,
      password,
      role: role as 'member',
      bot: v.bot === true,
    });
    io.out(`Added ${v.bot === true ? 'bot' : role} ${credentials.email}.`);
    io.out(JSON.stringify(credentials));
    return 0;
  } finally {
    await chat.close();
    db.close();
  }
}

const IMPORT_ROLES = ['owner', 'admin', 'moderator', 'member', 'guest'] as const;

/**
 * `parley user import --db FILE USERS.csv`: a header record naming the columns `email`,
 * `full_name` and optionally `role`, then one user per record (docs/cli.md). Prints their
 * credentials as CSV (email,user_id,api_key). Nothing is added when a record is refused.
 */
async function userImport(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parseWithPositionals(args, { db: { type: 'string' } });
  const file = required(values, 'db');
  if (positionals.length !== 1) throw new UsageError('user import takes one CSV file');
  const csvFile = positionals[0]!;
  let text: string;
  try {
    text = readFileSync(csvFile, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${csvFile}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  let records;
  try {
    records = parseCsv(text);
  } catch (error) {
    if (!(error instanceof CsvError)) throw error;
    io.err(`parley: ${csvFile} ${error.message}`);
    return 1;
  }
  const [header, ...rows] = records;
  const columns = header?.fields.map((name) => name.trim().toLowerCase()) ?? [];
  const unknown = columns.filter((name) => !['email', 'full_name', 'role'].includes(name));
  if (!columns.includes('email') || !columns.includes('full_name') || unknown.length > 0) {
    io.err(`parley: ${csvFile} line 1: the header must name the columns email, full_name and optionally role${unknown.length > 0 ? `, not ${unknown.join(', ')}` : ''}`);
    return 1;
  }
  const at = (fields: string[], name: string) => fields[columns.indexOf(name)];
  const users: ImportedAccount[] = [];
  for (const { fields, line } of rows) {
    const role = (at(fields, 'role') ?? '').trim() || 'member';
    if (fields.length !== columns.length || !(IMPORT_ROLES as readonly string[]).includes(role)) {
      const problem = fields.length !== columns.length ? `${fields.length} fields instead of ${columns.length}` : `role must be one of ${IMPORT_ROLES.join(', ')}, not '${role}'`;
      io.err(`parley: ${csvFile} line ${line}: ${problem}`);
      return 1;
    }
    users.push({ email: at(fields, 'email')!, fullName: at(fields, 'full_name')!, role: role as ImportedAccount['role'] });
  }
  const { db, chat } = await openChat(file);
  try {
    const credentials = await chat.admin.addUsers(users);
    io.out(csvRecord(['email', 'user_id', 'api_key']));
    for (const c of credentials) io.out(csvRecord([c.email, String(c.user_id), c.api_key]));
    return 0;
  } catch (error) {
    const index = (error as { extra?: { user_index?: unknown; reason?: unknown } }).extra;
    if (typeof index?.user_index !== 'number') throw error;
    io.err(`parley: ${csvFile} line ${rows[index.user_index]!.line}: ${String(index.reason)}`);
    return 1;
  } finally {
    await chat.close();
    db.close();
  }
}

type Admin = ChatServer['admin'];

/** The account a --email names, or a refusal (exit code 1). */
function account(admin: Admin, email: string, io: Io): NonNullable<ReturnType<Admin['userByEmail']>> | undefined {
  const found = admin.userByEmail(email);
  if (!found) io.err(`parley: no user or bot has the email '${email}'`);
  return found;
}

/** deactivate, reactivate and regenerate-api-key: --db and --email, one action on that account. */
async function onAccount(args: string[], io: Io, act: (admin: Admin, target: NonNullable<ReturnType<Admin['userByEmail']>>) => void): Promise<number> {
  const v = parse(args, { db: { type: 'string' }, email: { type: 'string' } });
  const file = required(v, 'db');
  const email = required(v, 'email');
  const { db, chat } = await openChat(file);
  try {
    const target = account(chat.admin, email, io);
    if (!target) return 1;
    act(chat.admin, target);
    return 0;
  } finally {
    await chat.close();
    db.close();
  }
}

/**
 * set-password: a person's new password from --password, --password-file or PARLEY_PASSWORD
 * (required), never echoed; their web sessions end, their API key stays.
 */
async function setPasswordCommand(args: string[], io: Io): Promise<number> {
  const v = parse(args, { db: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' }, 'password-file': { type: 'string' } });
  const file = required(v, 'db');
  const email = required(v, 'email');
  const password = secret(v, io, 'password', PASSWORD_ENV)?.value;
  if (password === undefined) throw new UsageError(`--password, --password-file or ${PASSWORD_ENV} is required`);
  const { db, chat } = await openChat(file);
  try {
    const target = account(chat.admin, email, io);
    if (!target) return 1;
    if (target.is_bot) {
      io.err(`parley: ${target.email} is a bot: bots have no password`);
      return 1;
    }
    await chat.admin.setPassword(target.user_id, password);
    io.out(`Set the password of ${target.email}; its web sessions have ended.`);
    return 0;
  } finally {
    await chat.close();
    db.close();
  }
}

export async function userCommand(subcommand: string, args: string[], io: Io): Promise<number> {
  switch (subcommand) {
    case 'add':
      return userAdd(args, io);
    case 'import':
      return userImport(args, io);
    case 'deactivate':
      return onAccount(args, io, (admin, target) => {
        const ids = admin.deactivateUser(target.user_id);
        if (ids.length === 0) return io.out(`${target.email} was already deactivated.`);
        const bots = ids.length - 1;
        io.out(`Deactivated ${target.email}${bots > 0 ? ` and ${bots} bot${bots === 1 ? '' : 's'} it owned` : ''}.`);
      });
    case 'reactivate':
      return onAccount(args, io, (admin, target) => {
        if (target.is_active) return io.out(`${target.email} is already active.`);
        admin.reactivateUser(target.user_id);
        io.out(`Reactivated ${target.email}.`);
      });
    case 'set-password':
      return setPasswordCommand(args, io);
    case 'regenerate-api-key':
      // Only the key on stdout: `KEY=$(parley user regenerate-api-key ...)`.
      return onAccount(args, io, (admin, target) => io.out(admin.regenerateApiKey(target.user_id)));
    default:
      throw new UsageError(`unknown command 'user ${subcommand}'`);
  }
}
