// The `parley user` subcommands: add, deactivate, reactivate, regenerate-api-key, set-password. Each opens the
// database, acts without permission checks (whoever can open the file owns the organization), and
// answers with exit code 0, 1 for a refusal (`parley: <message>` on stderr) or 2 for bad arguments.
import { openChat, parse, required, secret, UsageError, type Io } from './cli_args.js';
import type { ChatServer } from './index.js';

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
