// The application shell: the sign-in form, or the signed-in layout (views and channels on the
// left, the open view with compose in the middle, people on the right) with the connection
// state; the URL's hash picks the view. Signed in means the browser's session cookie (or the
// embedding application's sign-in) works: GET /users/me says, or POST /register's answer in a
// browser signed in when last seen (signed_in_hint.ts). Keys as Zulip's: c new message,
// x new direct message, / search.
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiFailure, dropPrefetched } from '../api.js';
import { Client, whenIdle } from '../client.js';
import { signedInAs as askSignedIn } from '../requests/public.js';
import { noteSignedIn, wasSignedInAtLoad } from '../signed_in_hint.js';
import { isMessageView, parseHash, type View } from '../narrow.js';
import { pageTitle } from '../notify.js';
import { useStore } from '../store.js';
import { ChannelsPage } from './Channels.js';
import { Compose, openCompose } from './Compose.js';
import { Inbox, Recent } from './Conversations.js';
import { Drafts } from './Drafts.js';
import { Login } from './Login.js';
import { MessageList } from './MessageList.js';
import { isNewOrganization, Onboarding } from './Onboarding.js';
import { Organization } from './Organization.js';
import { People } from './People.js';
import { SearchBox } from './SearchBox.js';
import { Settings } from './Settings.js';
import { Sidebar } from './Sidebar.js';
import { ViewTitle, viewTitle } from './ViewTitle.js';
import { turnOffWebPush } from '../web_push.js';

export function App() {
  /** The signed-in user's id; null signed out; undefined while the first check runs. */
  const [userId, setUserId] = useState<number | null | undefined>(undefined);
  const signedInAs = (id: number | null) => {
    noteSignedIn(id !== null);
    if (id === null) dropPrefetched();
    setUserId(id);
  };
  // A browser signed in when last seen (signed_in_hint.ts) opens the signed-in page at once, as the
  // boot script sent its requests at once: their answers are taken as they arrive, not after
  // GET /users/me's. A wrong hint ends as a session that stopped working does (a 401: signed out).
  const [hinted] = useState(wasSignedInAtLoad);
  useEffect(() => {
    if (hinted) return;
    askSignedIn().then(
      (me) => signedInAs(me.user_id),
      (error) => {
        // A session that stopped working, as in SignedIn: the browser forgets its push subscription.
        if (error instanceof ApiFailure && error.status === 401) void turnOffWebPush(undefined);
        signedInAs(null);
      },
    );
  }, []);
  if (userId === null) return <Login onLogin={(signedIn) => signedInAs(signedIn.user_id)} />;
  if (userId === undefined && !hinted) return <Loading />;
  // No key: a new sign-in shows the form first, so each signed-in user gets a SignedIn of their own.
  return <SignedIn onSignOut={() => signedInAs(null)} />;
}

/**
 * While the page waits for the server: "Loading…" once the page has been loading half a second
 * (style.css), counted from the page's start: the placeholder of the sign-in check and the
 * signed-in page's one are two elements, and neither starts the wait again.
 */
const Loading = () => (
  <div class="login" aria-busy="true">
    <p class="loading" style={{ animationDelay: `${Math.max(0, 500 - performance.now())}ms` }}>Loading…</p>
  </div>
);

const typingInField = (e: KeyboardEvent) => {
  const el = e.target as HTMLElement | null;
  return el !== null && (el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName));
};

function MainView({ client, view, signOut }: { client: Client; view: View; signOut: () => void }) {
  if (view.kind === 'unread') {
    const empty = (
      <div class="empty-view">
        {isNewOrganization(client) ? <Onboarding client={client} /> : <p class="empty">No unread messages. You are all caught up!</p>}
      </div>
    );
    return <MessageList client={client} empty={empty} />;
  }
  if (isMessageView(view)) return <MessageList client={client} />;
  switch (view.kind) {
    case 'recent':
      return <Recent client={client} />;
    case 'inbox':
      return <Inbox client={client} />;
    case 'followed':
      return <Inbox client={client} followedOnly />;
    case 'drafts':
      return <Drafts client={client} />;
    case 'channels':
      return <ChannelsPage client={client} section={view.section} />;
    case 'settings':
      return <Settings client={client} section={view.section} onSignOut={signOut} />;
    case 'organization':
      return <Organization client={client} section={view.section} />;
    default:
      return null;
  }
}

function SignedIn({ onSignOut }: { onSignOut: () => void }) {
  // The session stopped working: this browser forgets its push subscription (the server deletes
  // it when the push service answers that it is gone).
  const unauthorized = () => {
    void turnOffWebPush(undefined);
    onSignOut();
  };
  const client = useMemo(() => new Client({ unauthorized }), []);
  const state = useStore(client.state);
  const [panel, setPanel] = useState<'none' | 'menu' | 'people'>('none');
  // Signed in by a session of parley's own, or by the embedding application (nothing to end here).
  // (Undefined until the server says: no sign-out button that then goes; shown if it cannot say.)
  const [ownSession, setOwnSession] = useState<boolean | undefined>(undefined);
  // The layout is shown once, whole: when the state is in and the first view's messages too (or
  // the connection is lost, or the messages take more than two seconds more), not as an empty
  // frame rendered, laid out and then filled twice.
  const shown = useRef(false);
  const [waited, setWaited] = useState(false);
  shown.current ||= (client.registered && (!state.view.loading || waited)) || state.connection !== 'live';
  // Asked once the page is shown, registered (the server answers and the session works) and idle:
  // the header's button comes a moment after the first paint.
  const ask = shown.current && client.registered;
  useEffect(() => {
    if (!ask) return;
    let live = true;
    whenIdle(() => {
      if (live) client.accounts.sessions().then((sessions) => live && setOwnSession(sessions.some((s) => s.current)), () => live && setOwnSession(true));
    });
    return () => {
      live = false;
    };
  }, [client, ask]);
  useEffect(() => {
    if (!client.registered || shown.current) return;
    const timer = setTimeout(() => setWaited(true), 2000);
    return () => clearTimeout(timer);
  }, [client.registered]);

  // As soon as the layout is in the document, not after its first paint (useEffect's time): the
  // view's messages and the event queue are on the way one frame sooner.
  useLayoutEffect(() => {
    const follow = () => {
      void client.open(parseHash(location.hash));
      setPanel('none');
    };
    const keys = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typingInField(e)) return;
      if (e.key === 'c' || e.key === 'x') {
        e.preventDefault();
        openCompose(e.key === 'c' ? 'stream' : 'private');
      } else if (e.key === '/') {
        e.preventDefault();
        dispatchEvent(new Event('parley:search'));
      }
    };
    follow();
    client.start();
    addEventListener('hashchange', follow);
    addEventListener('keydown', keys);
    return () => {
      removeEventListener('hashchange', follow);
      removeEventListener('keydown', keys);
      client.stop();
    };
  }, [client]);

  const view = client.view;
  useEffect(() => {
    document.title = pageTitle(state, viewTitle(client, view));
  });

  const signOut = () => {
    client.stop();
    // The next person to sign in here must not get this user's notifications: the server forgets
    // this browser while the session still works, then the session ends.
    void turnOffWebPush(client.webPush)
      .catch(() => undefined)
      .then(() => client.accounts.signOut())
      .catch(() => undefined)
      .then(onSignOut);
  };
  const toggle = (p: 'menu' | 'people') => setPanel(panel === p ? 'none' : p);
  if (!shown.current) return <Loading />;
  return (
    <div class={`shell${panel === 'menu' ? ' menu-open' : ''}${panel === 'people' ? ' people-open' : ''}`}>
      <header class="topbar" data-session={ownSession === undefined ? undefined : ownSession ? 'own' : 'application'}>
        <button class="menu-button" aria-label="Channels and views" aria-expanded={panel === 'menu'} onClick={() => toggle('menu')}>☰</button>
        <ViewTitle client={client} view={view} />
        <SearchBox view={view} />
        <span class={`connection ${state.connection}`} role="status" data-connection={state.connection}>
          {state.connection === 'live' ? '' : 'Reconnecting…'}
        </span>
        <button class="people-button" aria-label="People" aria-expanded={panel === 'people'} onClick={() => toggle('people')}>People</button>
        {state.me.is_admin && <a class="settings-link" href="#organization/users">Organization</a>}
        {!state.me.is_admin && state.users.get(state.me.user_id)?.is_guest === false && <a class="settings-link" href="#organization/invitations">Invite</a>}
        <a class="settings-link" href="#settings/profile">Settings</a>
        {ownSession === true && <button class="link-button" onClick={signOut}>Sign out</button>}
      </header>
      <Sidebar client={client} />
      <main class="view" id="view">
        <MainView client={client} view={view} signOut={signOut} />
        <Compose client={client} view={view} />
      </main>
      <People client={client} />
    </div>
  );
}
