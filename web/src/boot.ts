// Runs before the application's bundle (index.html loads it first, a small classic script): the
// requests the client makes first start now, while the bundle loads and runs: the event queue's
// registration and the first page of messages when the address names a message view that needs
// no state (a channel, a topic, Unread, ...). The client's identical requests take their answers
// (api.ts): the view is painted sooner, in one go with the state. They start at once in a browser
// that was signed in when last seen (signed_in_hint.ts), else only once GET /users/me (the
// session cookie) says it is.
import { prefetch } from './api.js';
import { apiNarrow, firstPage, isMessageView, needsState, parseHash } from './narrow.js';
import { accountPage } from './pages/route.js';
import { REGISTER_PARAMS } from './register_params.js';
import { pageParams } from './requests/messages.js';
import { wasSignedInAtLoad } from './signed_in_hint.js';

// An account page (a link sent by email) is not the signed-in client.
if (accountPage() === undefined) {
  // Signed in when last seen: POST /register's answer says whether the session still works
  // (App.tsx), so no GET /users/me is asked first; else it is, and the others wait for its answer.
  const after = wasSignedInAtLoad() ? undefined : prefetch('GET', 'users/me', {});
  const view = parseHash(location.hash);
  // Before registering, the client's narrow has no user id either (needsState views aside).
  if (isMessageView(view) && !needsState(view)) prefetch('GET', 'messages', pageParams(apiNarrow(view, 0), firstPage(view)), after);
  prefetch('POST', 'register', REGISTER_PARAMS, after);
}
