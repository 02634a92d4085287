// The application shell: the sign-in form, or the signed-in layout (sidebar, the open view,
// compose) with the connection state; the URL's hash picks the view.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Api, type Credentials } from '../api.js';
import { Client } from '../client.js';
import { isMessageView, parseHash } from '../narrow.js';
import { loadSession, saveSession } from '../session.js';
import { useStore } from '../store.js';
import { Compose } from './Compose.js';
import { Drafts } from './Drafts.js';
import { Login } from './Login.js';
import { MessageList } from './MessageList.js';
import { Settings } from './Settings.js';
import { Sidebar } from './Sidebar.js';
import { ViewTitle } from './ViewTitle.js';

export function App() {
  const [credentials, setCredentials] = useState<Credentials | null>(loadSession);
  const signIn = (c: Credentials | null) => {
    saveSession(c);
    setCredentials(c);
  };
  if (!credentials) return <Login onLogin={signIn} />;
  return <SignedIn key={credentials.email} credentials={credentials} onSignOut={() => signIn(null)} />;
}

function SignedIn({ credentials, onSignOut }: { credentials: Credentials; onSignOut: () => void }) {
  const client = useMemo(() => new Client(new Api(credentials), onSignOut), [credentials]);
  const state = useStore(client.state);
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    const follow = () => {
      void client.open(parseHash(location.hash));
      setMenuOpen(false);
    };
    follow();
    client.start();
    addEventListener('hashchange', follow);
    return () => {
      removeEventListener('hashchange', follow);
      client.stop();
    };
  }, [client]);

  const signOut = () => {
    client.stop();
    onSignOut();
  };
  const view = client.view;
  return (
    <div class={`shell${menuOpen ? ' menu-open' : ''}`}>
      <header class="topbar">
        <button class="menu-button" aria-label="Channels and views" aria-expanded={menuOpen} onClick={() => setMenuOpen(!menuOpen)}>☰</button>
        <ViewTitle client={client} view={view} />
        <span class={`connection ${state.connection}`} role="status" data-connection={state.connection}>
          {state.connection === 'live' ? '' : 'Reconnecting…'}
        </span>
        <a class="settings-link" href="#settings">Settings</a>
        <button class="link-button" onClick={signOut}>Sign out</button>
      </header>
      <Sidebar client={client} />
      <main class="view" id="view">
        {isMessageView(view) && (
          <>
            <MessageList client={client} />
            <Compose client={client} view={view} />
          </>
        )}
        {view.kind === 'drafts' && <Drafts client={client} />}
        {view.kind === 'settings' && <Settings client={client} />}
      </main>
    </div>
  );
}
