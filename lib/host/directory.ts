// Organizations kept as the database files of one directory (`parley serve --orgs DIR`):
// `<dir>/<name>.db` is organization <name>'s. Only files that exist are opened: an unknown name
// never creates one.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { isOrganizationName, NAME_RULE } from './addresses.js';

const SUFFIX = '.db';

export interface OrganizationDirectory {
  /** The organization's database, if its file exists (ChatHostOptions.open). */
  open(name: string): Database.Database | undefined;
  /** The names of the organizations there, sorted. */
  names(): string[];
  /** Where the organization's database is (or would be). */
  path(name: string): string;
  /** Creates the organization's database file; refuses a bad name or one that exists. */
  create(name: string): Database.Database;
}

export function organizationsIn(dir: string): OrganizationDirectory {
  const path = (name: string): string => {
    if (!isOrganizationName(name)) throw new Error(`'${name}': ${NAME_RULE}`);
    return join(dir, name + SUFFIX);
  };
  return {
    path,
    open(name) {
      if (!isOrganizationName(name)) return undefined;
      const file = path(name);
      return existsSync(file) ? new Database(file, { fileMustExist: true }) : undefined;
    },
    names: () =>
      readdirSync(dir)
        .filter((file) => file.endsWith(SUFFIX) && isOrganizationName(file.slice(0, -SUFFIX.length)))
        .map((file) => file.slice(0, -SUFFIX.length))
        .sort(),
    create(name) {
      const file = path(name);
      if (existsSync(file)) throw new Error(`${file} already exists`);
      return new Database(file);
    },
  };
}
