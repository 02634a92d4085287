// Runs before the application's bundle (index.html loads it first, a small classic script): the
// requests the client makes first start now, while the bundle loads and runs: whether the browser
// is signed in (GET /users/me, the session cookie), the event queue's registration and the first
// page of messages when the address names a message view that needs no state (a channel, a topic,
// Unread, ...). The client's identical requests take their answers (api.ts): the view is painted
// sooner, in one go with the state. The last two start at once in a browser that was signed in
// when last seen (signed_in_hint.ts), else only once GET /users/me says it is.
import { prefetch } from './api.js';
import { apiNarrow, firstPage, isMessageView, needsState, parseHash } from './narrow.js';
import { accountPage } from './pages/route.js';
import { REGISTER_PARAMS } from './register_params.js';
import { pageParams } from './requests/messages.js';
import { wasSignedIn } from './signed_in_hint.js';

// An account page (a link sent by email) is not the signed-in client.
if (accountPage() === undefined) {
  const signedIn = prefetch('GET', 'users/me', {});
  const after = wasSignedIn() ? undefined : signedIn;
  const view = parseHash(location.hash);
  // Before registering, the client's narrow has no user id either (needsState views aside).
  if (isMessageView(view) && !needsState(view)) prefetch('GET', 'messages', pageParams(apiNarrow(view, 0), firstPage(view)), after);
  prefetch('POST', 'register', REGISTER_PARAMS, after);
}
