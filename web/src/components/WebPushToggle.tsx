// "Notify this browser when the tab is closed" (Web Push, web_push.ts): off unless turned on
// here; turning it on asks for the browser's permission to show notifications.
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import type { Client } from '../client.js';
import { browserSubscription, turnOffWebPush, turnOnWebPush, webPushSupported, WebPushRefused } from '../web_push.js';

export function WebPushToggle({ client }: { client: Client }) {
  // null until the browser has said whether it has a subscription.
  const [on, setOn] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (webPushSupported()) void browserSubscription().then((s) => setOn(s !== null), () => setOn(false));
  }, []);
  if (!webPushSupported()) return <p>This browser cannot be notified when the tab is closed.</p>;

  const change = async (wanted: boolean) => {
    setBusy(true);
    setMessage('');
    try {
      if (wanted) await turnOnWebPush(client.webPush);
      else await turnOffWebPush(client.webPush);
      setOn(wanted);
      setMessage(wanted ? 'This browser will be notified when the tab is closed.' : 'This browser will not be notified when the tab is closed.');
    } catch (error) {
      setOn((await browserSubscription().catch(() => null)) !== null);
      setMessage(error instanceof WebPushRefused || error instanceof ApiFailure ? error.message : 'Failed.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <fieldset>
      <legend>This browser, when parley is closed</legend>
      <label class="inline">
        <input type="checkbox" name="web_push" checked={on === true} disabled={on === null || busy} onChange={(e) => void change((e.target as HTMLInputElement).checked)} />
        {' '}Notify this browser when the tab is closed
      </label>
      <p class="muted">For what the Mobile settings below push to phones: direct messages and mentions by default.</p>
      <p role="status" class="web-push-status">{message}</p>
    </fieldset>
  );
}
