// Where each organization of a host is reached: its URL from the host's template (`{org}` in
// the host name, as Zulip's subdomains, or as a path segment), and the organization a request is
// for, read from its Host header or its path. Knows nothing of chat.

/**
 * An organization's name: what its subdomain or path segment and its database file are called.
 * Zulip's subdomain rules (check_subdomain_available): lowercase letters, digits and dashes, not
 * starting or ending with a dash, at least 3 characters; at most 63, a DNS label's limit.
 */
const NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

export const NAME_RULE = 'an organization name has 3 to 63 lowercase letters, digits and dashes, and neither starts nor ends with a dash';

export function isOrganizationName(name: string): boolean {
  return NAME.test(name);
}

const PLACEHOLDER = '{org}';
/** A name the template is tried with: the placeholder must survive URL parsing as one label or segment. */
const SAMPLE = 'parley-sample-org';

/** What a request resolves to: its organization and the path the organization's server sees. */
export type Resolved =
  | { kind: 'organization'; name: string; path: string }
  /** The organization's own address without its final slash: its pages' relative links need one. */
  | { kind: 'redirect'; location: string }
  | { kind: 'none' };

export interface OrganizationAddresses {
  /** Whether organizations are told apart by host name (else by the first segments of the path). */
  readonly byHost: boolean;
  /** The organization URL (realm.url) of `name`, without a final slash. */
  url(name: string): string;
  /** The organization a request is for, from its Host header and its request target. */
  resolve(host: string | undefined, target: string): Resolved;
}

/**
 * The addresses of a template such as `https://{org}.chat.example.com` (by host name: a request
 * for acme.chat.example.com is acme's) or `https://chat.example.com/org/{org}` (by path:
 * /org/acme/api/v1/... is acme's /api/v1/...). Throws on a template without exactly one `{org}`
 * standing for a whole host label or path segment.
 */
export function organizationAddresses(template: string): OrganizationAddresses {
  const parts = template.split(PLACEHOLDER);
  if (parts.length !== 2) throw new Error(`The organization URL template must contain ${PLACEHOLDER} once, not '${template}'`);
  let sample: URL;
  try {
    sample = new URL(parts.join(SAMPLE));
  } catch {
    throw new Error(`The organization URL template must be an absolute http:// or https:// URL, not '${template}'`);
  }
  if ((sample.protocol !== 'http:' && sample.protocol !== 'https:') || sample.search !== '' || sample.hash !== '' || sample.username !== '') {
    throw new Error(`The organization URL template must be an absolute http:// or https:// URL without a query, not '${template}'`);
  }
  const labels = sample.hostname.split('.');
  const segments = sample.pathname.replace(/\/+$/, '').split('/').slice(1);
  const label = labels.indexOf(SAMPLE);
  const segment = segments.indexOf(SAMPLE);
  if ((label < 0) === (segment < 0)) {
    throw new Error(`${PLACEHOLDER} must stand for a whole host name label or path segment of the template, not '${template}'`);
  }
  const url = (name: string): string => parts.join(name).replace(/\/+$/, '');
  if (label >= 0) {
    if (segments.length > 0) throw new Error(`A template by host name has no path, not '${template}'`);
    return { byHost: true, url, resolve: (host, target) => byHostName(labels, label, host, target) };
  }
  return { byHost: false, url, resolve: (_host, target) => byPath(segments.slice(0, segment), target) };
}

/** The host name of a Host header, lowercased, without its port and a final dot. */
function hostName(host: string): string {
  const bracketed = /^\[[^\]]*\]/.exec(host);
  const name = bracketed ? bracketed[0] : host.replace(/:\d*$/, '');
  return name.toLowerCase().replace(/\.$/, '');
}

function byHostName(labels: readonly string[], at: number, host: string | undefined, target: string): Resolved {
  if (host === undefined || !target.startsWith('/')) return { kind: 'none' };
  const given = hostName(host).split('.');
  if (given.length !== labels.length) return { kind: 'none' };
  for (let i = 0; i < labels.length; i += 1) if (i !== at && given[i] !== labels[i]) return { kind: 'none' };
  const name = given[at]!;
  return isOrganizationName(name) ? { kind: 'organization', name, path: target } : { kind: 'none' };
}

function byPath(prefix: readonly string[], target: string): Resolved {
  if (!target.startsWith('/')) return { kind: 'none' };
  const queryAt = target.search(/[?#]/);
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  const query = queryAt < 0 ? '' : target.slice(queryAt);
  const given = path.split('/').slice(1);
  if (given.length <= prefix.length) return { kind: 'none' };
  for (let i = 0; i < prefix.length; i += 1) if (given[i] !== prefix[i]) return { kind: 'none' };
  const name = given[prefix.length]!;
  if (!isOrganizationName(name)) return { kind: 'none' };
  const rest = given.slice(prefix.length + 1);
  if (rest.length === 0) return { kind: 'redirect', location: `${path}/${query}` };
  return { kind: 'organization', name, path: `/${rest.join('/')}${query}` };
}
