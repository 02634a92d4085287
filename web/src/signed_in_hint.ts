// Whether this browser was signed in when last seen: a hint, not a credential (the session cookie
// is HttpOnly and the page never sees it), so that the boot script may start the signed-in
// requests at once instead of after GET /users/me. Wrong at most once: those requests are then
// answered 401, and the hint is dropped. One per organization: several may be served from one
// origin, each at its own path (the client's root).
const KEY = `parley.signedIn:${new URL('./', document.baseURI).pathname}`;

export function wasSignedIn(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * The hint as this page load read it first: the boot script and the application (two bundles)
 * decide alike even when another tab signs in or out between them.
 */
export function wasSignedInAtLoad(): boolean {
  const page = window as { parleySignedInAtLoad?: boolean };
  return (page.parleySignedInAtLoad ??= wasSignedIn());
}

export function noteSignedIn(signedIn: boolean): void {
  try {
    if (signedIn) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // Storage turned off: the boot script waits for GET /users/me.
  }
}
