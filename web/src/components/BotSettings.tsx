// Personal settings > Bots (https://zulip.com/help/add-a-bot-or-integration): one's bots with their
// email, API key and zuliprc, a new key, deactivation; a form that creates incoming webhook and
// generic bots; and the integration URL generator (IntegrationUrl.tsx).
import { useState } from 'preact/hooks';
import { siteUrl } from '../api.js';
import type { Client } from '../client.js';
import { GENERIC_BOT, INCOMING_WEBHOOK_BOT } from '../requests/bots.js';
import { useStore } from '../store.js';
import type { Bot } from '../types.js';
import { IntegrationUrl } from './IntegrationUrl.js';
import { submitting, useOutcome } from './outcome.js';

const BOT_TYPES: [number, string][] = [[INCOMING_WEBHOOK_BOT, 'Incoming webhook'], [GENERIC_BOT, 'Generic bot']];
const typeName = (type: number): string => BOT_TYPES.find(([t]) => t === type)?.[1] ?? (type === 3 ? 'Outgoing webhook' : 'Bot');

/** Zulip's zuliprc for a bot (the `[api]` section python-zulip-api and zulip-terminal read). */
export const zuliprc = (bot: Bot): string => `[api]\nemail=${bot.email}\nkey=${bot.api_key}\nsite=${siteUrl()}\n`;

function BotCard({ client, bot }: { client: Client; bot: Bot }) {
  const [shown, setShown] = useState(false);
  const [outcome, run] = useOutcome();
  const regenerate = () => {
    if (confirm(`Regenerate the API key of ${bot.full_name}? Every integration URL and zuliprc holding the old one stops working.`)) {
      run(client.bots.regenerateKey(bot.user_id).then(() => setShown(true)), 'A new API key is in use.');
    }
  };
  const deactivate = () => {
    if (confirm(`Deactivate ${bot.full_name}? It can no longer post.`)) run(client.bots.deactivate(bot.user_id), 'Deactivated.');
  };
  return (
    <li class="bot-card" data-bot-id={bot.user_id}>
      <h3>{bot.full_name}</h3>
      <dl>
        <dt>Type</dt><dd>{typeName(bot.bot_type)}</dd>
        <dt>Bot email</dt><dd class="bot-email">{bot.email}</dd>
        <dt>API key</dt>
        <dd>{shown ? <code class="api-key">{bot.api_key}</code> : <button onClick={() => setShown(true)} aria-label={`Show API key of ${bot.full_name}`}>Show API key</button>}</dd>
      </dl>
      <a class="button zuliprc" href={`data:text/plain;charset=utf-8,${encodeURIComponent(zuliprc(bot))}`} download="zuliprc" aria-label={`Download zuliprc of ${bot.full_name}`}>Download zuliprc</a>{' '}
      <button onClick={() => run(navigator.clipboard.writeText(zuliprc(bot)), 'Copied.')} aria-label={`Copy zuliprc of ${bot.full_name}`}>Copy zuliprc</button>{' '}
      <button onClick={regenerate} aria-label={`Regenerate API key of ${bot.full_name}`}>Regenerate API key</button>{' '}
      <button class="danger" onClick={deactivate} aria-label={`Deactivate ${bot.full_name}`}>Deactivate</button>
      <p role="status">{outcome}</p>
    </li>
  );
}

function NewBot({ client }: { client: Client }) {
  const [outcome, run] = useOutcome();
  const create = submitting(run, (data) => {
    const name = String(data.get('full_name') ?? '').trim();
    const short = String(data.get('short_name') ?? '').trim();
    return name && short ? client.bots.create(name, short, Number(data.get('bot_type'))) : null;
  }, 'Created.');
  return (
    <section>
      <h2>Add a new bot</h2>
      <form class="settings-form new-bot" onSubmit={create}>
        <label>Bot type
          <select name="bot_type">{BOT_TYPES.map(([value, label]) => <option key={value} value={value}>{label}</option>)}</select>
        </label>
        <label>Name <input name="full_name" required maxLength={60} /></label>
        <label>Bot email <span class="muted">(before -bot@)</span> <input name="short_name" required pattern="[A-Za-z0-9_.\-]+" /></label>
        <button type="submit">Create bot</button>
      </form>
      <p role="status">{outcome}</p>
    </section>
  );
}

export function BotSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const mine = [...state.bots.values()].filter((b) => b.owner_id === state.me.user_id && b.is_active).sort((a, b) => a.user_id - b.user_id);
  return (
    <>
      <section>
        <h2>Your bots</h2>
        {mine.length === 0 ? <p class="muted">You have no active bots.</p> : <ul class="bots">{mine.map((bot) => <BotCard key={bot.user_id} client={client} bot={bot} />)}</ul>}
      </section>
      <NewBot client={client} />
      <IntegrationUrl client={client} bots={mine} />
    </>
  );
}
