// Joining: an invitation's or a confirmed address's link (/accounts/do_confirm/<key>) asks for a
// name and password and creates the account, signed in; a reusable invitation link (/join/<key>)
// and open sign-up (/register) first ask for the address the confirmation goes to.
import { useState } from 'preact/hooks';
import { Card } from '../components/Login.js';
import { askToJoin, register } from '../requests/public.js';
import type { LinkInfo } from '../types.js';
import { field, LinkProblem, useLink, useSubmit, withLink } from './common.js';
import { openApplication } from './route.js';

const ROLES: Record<number, string> = { 100: 'an owner', 200: 'an administrator', 300: 'a moderator', 400: 'a member', 600: 'a guest' };

export const SignUp = withLink(function SignUpForm({ linkKey, info }: { linkKey: string; info: LinkInfo }) {
  const { busy, error, submit } = useSubmit();
  const send = (e: Event) => {
    e.preventDefault();
    submit(async () => {
      await register(linkKey, field(e, 'full_name'), field(e, 'password'));
      openApplication();
    });
  };
  return (
    <Card onSubmit={send}>
      <p class="signup-intro">
        {info.invited_by ? `${info.invited_by} invited you to join ${info.organization_name} as ${ROLES[info.invited_as ?? 400]}.` : `Join ${info.organization_name}.`}
      </p>
      <label>Email <input name="email" type="email" autocomplete="username" value={info.email ?? ''} readOnly /></label>
      <label>Your name <input name="full_name" autocomplete="name" required minLength={2} maxLength={100} autofocus /></label>
      <label>Password <input name="password" type="password" autocomplete="new-password" required minLength={6} /></label>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit" disabled={busy}>{busy ? 'Creating your account…' : 'Create account'}</button>
    </Card>
  );
});

/** The address form of a reusable link (`linkKey`) or of open sign-up; the confirmation goes to it. */
export function AskToJoin({ linkKey }: { linkKey?: string }) {
  const { info, problem } = useLink(linkKey ?? '');
  const { busy, error, submit } = useSubmit();
  const [sentTo, setSentTo] = useState('');
  if (linkKey !== undefined && problem) return <LinkProblem problem={problem} />;
  if (linkKey !== undefined && !info) return <Card><p aria-busy="true">Checking the link…</p></Card>;
  if (sentTo) {
    return (
      <Card>
        <p class="signup-sent" role="status">Check your email: we sent a link to {sentTo} to finish joining.</p>
      </Card>
    );
  }
  const send = (e: Event) => {
    e.preventDefault();
    const email = field(e, 'email').trim();
    submit(async () => {
      await askToJoin(email, linkKey);
      setSentTo(email);
    });
  };
  return (
    <Card onSubmit={send}>
      <p class="signup-intro">{info?.invited_by ? `${info.invited_by} invited you to join ${info.organization_name}.` : 'Sign up with your email address.'}</p>
      <label>Email <input name="email" type="email" autocomplete="email" required autofocus /></label>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit" disabled={busy}>{busy ? 'Sending…' : 'Send me a sign-up link'}</button>
    </Card>
  );
}
