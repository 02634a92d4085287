// A new email address's link (/accounts/confirm_new_email/<key>): the change is made by a click,
// not by opening the page (mail scanners open links).
import { useState } from 'preact/hooks';
import { Card } from '../components/Login.js';
import { confirmEmail } from '../requests/public.js';
import type { LinkInfo } from '../types.js';
import { useSubmit, withLink } from './common.js';

export const ConfirmEmail = withLink(function ConfirmForm({ linkKey, info }: { linkKey: string; info: LinkInfo }) {
  const { busy, error, submit } = useSubmit();
  const [changed, setChanged] = useState('');
  if (changed) {
    return (
      <Card>
        <p class="email-changed" role="status">Your email address is now {changed}.</p>
        <p class="login-links"><a href="./">Open {info.organization_name}</a></p>
      </Card>
    );
  }
  const confirm = (e: Event) => {
    e.preventDefault();
    submit(async () => setChanged((await confirmEmail(linkKey)).email));
  };
  return (
    <Card onSubmit={confirm}>
      <p>Use {info.email} as the email address of your account?</p>
      {error && <p class="error" role="alert">{error}</p>}
      <button type="submit" disabled={busy}>Confirm the new address</button>
    </Card>
  );
});
