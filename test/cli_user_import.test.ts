// `parley user import --db FILE USERS.csv` as a child process: the users of a CSV file (header
// email,full_name[,role], RFC 4180 quoting), their credentials printed as CSV; a refused record
// is named by its line (exit 1) and adds no one; a missing file or --db is a usage error (exit 2).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { parseCsv } from '../lib/csv.js';
import { runParley } from './cli_process.js';

t.setTimeout(300_000);

const dir = mkdtempSync(join(tmpdir(), 'parley-cli-import-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'chat.db');

const setup = new Database(file);
const chat = createChatServer(setup, { logger: silentLogger });
await chat.admin.initOrganization({ email: 'boss@example.com', fullName: 'The Boss' });
await chat.close();
setup.close();

function csv(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const userCount = () => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT count(*) FROM user').pluck().get() as number;
  } finally {
    db.close();
  }
};

t.test('a CSV file of users: each added with its role, joining the default channels; credentials out as CSV', async (t) => {
  const path = csv('users.csv', 'email,full_name,role\r\nann@example.com,Ann Lee,\r\n"bob@example.com","Builder, Bob",admin\r\ncy@example.com,Cy,guest\n');
  const run = await runParley(['user', 'import', '--db', file, path]);
  t.equal(run.code, 0, run.stderr);
  const out = parseCsv(run.stdout).map((record) => record.fields);
  t.same(out[0], ['email', 'user_id', 'api_key']);
  t.same(
    out.slice(1).map(([email]) => email),
    ['ann@example.com', 'bob@example.com', 'cy@example.com'],
  );
  const db = new Database(file, { readonly: true });
  t.teardown(() => db.close());
  for (const [email, userId, apiKey] of out.slice(1)) {
    t.same(db.prepare('SELECT id, api_key FROM user WHERE email = ?').raw().get(email), [Number(userId), apiKey], `${email}: the printed credentials`);
  }
  t.same(
    db.prepare("SELECT full_name, role FROM user WHERE email IN ('ann@example.com', 'bob@example.com', 'cy@example.com') ORDER BY id").raw().all(),
    [
      ['Ann Lee', 400],
      ['Builder, Bob', 200],
      ['Cy', 600],
    ],
  );
  t.equal(db.prepare("SELECT count(*) FROM subscription s JOIN stream c ON c.id = s.stream_id WHERE c.name = 'general'").pluck().get(), 4);
});

t.test('a refused record is named by its line and adds no one', async (t) => {
  const users = userCount();
  const cases: [string, string][] = [
    ['email,full_name\nnew1@example.com,New One\nann@example.com,Ann Again\n', "line 3: Email 'ann@example.com' already in use"],
    ['email,full_name\nnew1@example.com,New One\n\nnot-an-email,Somebody\n', "line 4: Invalid email 'not-an-email'"],
    ['email,full_name,role\nnew1@example.com,New One,boss\n', "line 2: role must be one of owner, admin, moderator, member, guest, not 'boss'"],
    ['email,full_name\nnew1@example.com\n', 'line 2: 1 fields instead of 2'],
    ['mail,name\nnew1@example.com,New One\n', 'line 1: the header must name the columns email, full_name and optionally role, not mail, name'],
    ['email,full_name\n"new1@example.com,New One\n', 'line 3: a quoted field is not closed'],
  ];
  for (const [text, message] of cases) {
    const path = csv('bad.csv', text);
    const run = await runParley(['user', 'import', '--db', file, path]);
    t.equal(run.code, 1, message);
    t.equal(run.stderr.trim(), `parley: ${path} ${message}`);
    t.equal(run.stdout, '');
  }
  t.equal(userCount(), users, 'nothing was added');
});

t.test('usage errors: no --db, no file, a file that cannot be read', async (t) => {
  for (const [args, message] of [
    [['user', 'import', csv('ok.csv', 'email,full_name\n')], '--db is required'],
    [['user', 'import', '--db', file], 'user import takes one CSV file'],
    [['user', 'import', '--db', file, join(dir, 'missing.csv')], `cannot read ${join(dir, 'missing.csv')}: ENOENT`],
  ] as const) {
    const run = await runParley([...args]);
    t.equal(run.code, 2, message);
    t.match(run.stderr, `parley: ${message}`);
  }
});

t.test('CSV as RFC 4180 writes it: quoted fields with commas, quotes and line breaks; CRLF or LF', async (t) => {
  t.same(
    parseCsv('a,"b ""c"", d",e\r\n"multi\nline",,\n').map((record) => [record.line, record.fields]),
    [
      [1, ['a', 'b "c", d', 'e']],
      [2, ['multi\nline', '', '']],
    ],
  );
  t.throws(() => parseCsv('a,b"c\n'), { message: 'line 1: a quote inside an unquoted field' });
  t.throws(() => parseCsv('"a"b\n'), { message: 'line 1: text after a closing quote' });
});
