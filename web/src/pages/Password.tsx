// Account recovery: "Forgot password?" (/accounts/password/reset) asks for the address and always
// answers the same; the emailed link (/accounts/password/reset/<key>) sets the new password and
// signs this browser in.
import { useState } from 'preact/hooks';
import { Card } from '../components/Login.js';
import { askPasswordReset, setNewPassword } from '../requests/public.js';
import type { LinkInfo } from '../types.js';
import { field, useSubmit, withLink } from './common.js';
import { openApplication } from './route.js';

export function ForgotPassword() {
  const { busy, error, submit } = useSubmit();
  const [sentTo, setSentTo] = useState('');
  if (sentTo) {
    return (
      <Card>
        <p class="reset-sent" role="status">
          If {sentTo} has an account here, a link to choose a new password is on its way to it. Check your email.
        </p>
        <p class="login-links"><a href="./">Back to sign-in</a></p>
      </Card>
    );
  }
  const send = (e: Event) => {
    e.preventDefault();
    const email = field(e, 'email').trim();
    submit(async () => {
      await askPasswordReset(email);
      setSentTo(email);
    });
  };
  return (
    <Card onSubmit={send}>
      <p>Forgot your password? We will email you a link to choose a new one.</p>
      <label>Email <input name="email" type="email" autocomplete="username" required autofocus /></label>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit" disabled={busy}>{busy ? 'Sending…' : 'Send the link'}</button>
      <p class="login-links"><a href="./">Back to sign-in</a></p>
    </Card>
  );
}

export const ResetPassword = withLink(function ResetForm({ linkKey, info }: { linkKey: string; info: LinkInfo }) {
  const { busy, error, submit } = useSubmit();
  const send = (e: Event) => {
    e.preventDefault();
    submit(async () => {
      await setNewPassword(linkKey, field(e, 'new_password'));
      openApplication();
    });
  };
  return (
    <Card onSubmit={send}>
      <p>Choose a new password for {info.email}.</p>
      <input type="text" name="username" autocomplete="username" value={info.email ?? ''} hidden readOnly />
      <label>New password <input name="new_password" type="password" autocomplete="new-password" required minLength={6} autofocus /></label>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit" disabled={busy}>{busy ? 'Saving…' : 'Set the password'}</button>
    </Card>
  );
});
