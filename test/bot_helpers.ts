// Bots made the way clients make them (POST /bots), for the bot and API key tests.
import { withAuth, type TestServer, type TestUser } from './helpers.js';

/** A bot created by `owner` through POST /bots, with its credentials. */
export async function botOf(s: TestServer, owner: TestUser, shortName: string): Promise<TestUser> {
  const reply = await s.request('POST', '/bots', { as: owner, params: { full_name: `${shortName} Bot`, short_name: shortName } });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return withAuth(reply.body as { email: string; api_key: string; user_id: number });
}
