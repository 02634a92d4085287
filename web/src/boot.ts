// Runs before the application's bundle (index.html loads it first, a small classic script): the
// requests the client makes first start now, while the bundle loads and runs: whether the browser
// is signed in (GET /users/me, the session cookie), and once it is, the event queue's registration
// and the first page of messages when the address names a message view that needs no state (a
// channel, a topic, Unread, ...). The client's identical requests take their answers (api.ts): the
// view is painted sooner, in one go with the state. Signed out, nothing more is asked.
import { prefetch } from './api.js';
import { apiNarrow, firstPage, isMessageView, needsState, parseHash } from './narrow.js';
import { accountPage } from './pages/route.js';
import { REGISTER_PARAMS } from './register_params.js';
import { pageParams } from './requests/messages.js';

// An account page (a link sent by email) is not the signed-in client.
if (accountPage() === undefined) {
  const signedIn = prefetch('GET', 'users/me', {});
  const view = parseHash(location.hash);
  // Before registering, the client's narrow has no user id either (needsState views aside).
  if (isMessageView(view) && !needsState(view)) prefetch('GET', 'messages', pageParams(apiNarrow(view, 0), firstPage(view)), signedIn);
  prefetch('POST', 'register', REGISTER_PARAMS, signedIn);
}
