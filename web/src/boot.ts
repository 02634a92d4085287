// Runs before the application's bundle (index.html loads it first, a small classic script): in a
// signed-in tab, the requests the client makes first start now, while the bundle loads and runs:
// the first page of messages when the address names a message view that needs no state (a
// channel, a topic, Unread, ...), and the event queue's registration. The client's identical
// requests take their answers (api.ts): the view is painted sooner, in one go with the state.
import { prefetch } from './api.js';
import { apiNarrow, firstPage, isMessageView, needsState, parseHash } from './narrow.js';
import { REGISTER_PARAMS } from './register_params.js';
import { pageParams } from './requests/messages.js';
import { loadSession } from './session.js';

const credentials = loadSession();
if (credentials) {
  const view = parseHash(location.hash);
  // Before registering, the client's narrow has no user id either (needsState views aside).
  if (isMessageView(view) && !needsState(view)) prefetch(credentials, 'GET', 'messages', pageParams(apiNarrow(view, 0), firstPage(view)));
  prefetch(credentials, 'POST', 'register', REGISTER_PARAMS);
}
