// Organizations for the tests of a host of many (createChatHost, `parley serve --orgs`): database
// files made in a directory, and requests that name their organization by Host header or path.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createChatServer, organizationsIn, type OrganizationDirectory } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { withAuth, type TestUser } from './helpers.js';
import { sendRaw, type RawReply } from './raw_http.js';

export interface SeededOrganization {
  name: string;
  owner: TestUser;
  members: TestUser[];
}

/** A directory with one database per name: its owner (owner@example.com in every one) and `members` members. */
export async function seedOrganizations(
  names: readonly string[],
  members = 1,
): Promise<{ dir: string; directory: OrganizationDirectory; organizations: Record<string, SeededOrganization> }> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-orgs-'));
  const directory = organizationsIn(dir);
  const organizations: Record<string, SeededOrganization> = {};
  for (const name of names) {
    const db = directory.create(name);
    const chat = createChatServer(db, { logger: silentLogger, realm: { emailAddressVisibility: 1 } });
    const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com', fullName: `${name} owner`, orgName: name.toUpperCase() }));
    const added: TestUser[] = [];
    for (let i = 0; i < members; i += 1) added.push(withAuth(await chat.admin.addUser({ email: `member${i}@${name}.test`, fullName: `${name} member ${i}` })));
    await chat.close();
    db.close();
    organizations[name] = { name, owner, members: added };
  }
  return { dir, directory, organizations };
}

/** A request to `base` (the host's listening address) for the host name `host`; JSON params. */
export function hostRequest(
  base: string,
  host: string,
  method: string,
  path: string,
  options: { as?: TestUser | undefined; params?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<RawReply> {
  const params = Object.entries(options.params ?? {}).map(([name, value]) => [name, Buffer.from(typeof value === 'string' ? value : JSON.stringify(value))] as const);
  return sendRaw(base, { method, path, params, encoding: method === 'GET' ? 'query' : 'urlencoded', authorization: options.as?.auth, host, headers: options.headers });
}
