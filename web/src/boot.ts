// Runs before the application's bundle (index.html loads it first, a small classic script): in a
// signed-in tab whose address names a message view that needs no state (a channel, a topic,
// Unread, ...), the request for its first page starts now, while the bundle loads and runs; the
// client's identical request takes its answer (api.ts), and the list is painted sooner.
import { prefetchGet } from './api.js';
import { apiNarrow, firstPage, isMessageView, needsState, parseHash } from './narrow.js';
import { pageParams } from './requests/messages.js';
import { loadSession } from './session.js';

const credentials = loadSession();
const view = parseHash(location.hash);
if (credentials && isMessageView(view) && !needsState(view)) {
  // Before registering, the client's narrow has no user id either (needsState views aside).
  prefetchGet(credentials, 'messages', pageParams(apiNarrow(view, 0), firstPage(view)));
}
