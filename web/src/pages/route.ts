// Which account page the address opens: the links sent by email and the signed-out forms live at
// paths under the client's root (the server serves the page there with a <base> to the root);
// anything else is the application itself.
export type AccountPage =
  | { kind: 'join'; key: string }
  | { kind: 'signup'; key: string }
  | { kind: 'register' }
  | { kind: 'forgot' }
  | { kind: 'reset'; key: string }
  | { kind: 'confirm-email'; key: string };

/** The address relative to the client's root (document.baseURI), without slashes at its ends. */
function relativePath(): string {
  const root = new URL(document.baseURI).pathname;
  const path = location.pathname.startsWith(root) ? location.pathname.slice(root.length) : '';
  return path.replace(/^\/+|\/+$/g, '');
}

export function accountPage(): AccountPage | undefined {
  const parts = relativePath().split('/');
  const key = parts.at(-1) ?? '';
  const at = parts.slice(0, -1).join('/');
  if (at === 'join') return { kind: 'join', key };
  if (at === 'accounts/do_confirm') return { kind: 'signup', key };
  if (at === 'accounts/password/reset') return { kind: 'reset', key };
  if (at === 'accounts/confirm_new_email') return { kind: 'confirm-email', key };
  const whole = parts.join('/');
  if (whole === 'register') return { kind: 'register' };
  if (whole === 'accounts/password/reset') return { kind: 'forgot' };
  return undefined;
}

/** Leaves an account page for the application at the client's root (signed in, if the page did). */
export function openApplication(): void {
  location.assign(new URL('./', document.baseURI).href);
}
