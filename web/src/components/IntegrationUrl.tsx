// Zulip's integration URL generator (https://zulip.com/help/generate-integration-url): pick a bot,
// an integration, a channel (or direct messages to oneself) and optionally a topic, the events to
// post and the integration's own options; the URL to paste into the service.
import { useState } from 'preact/hooks';
import { siteUrl } from '../api.js';
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import type { Bot, Integration } from '../types.js';
import { useOutcome } from './outcome.js';

interface Choice {
  botId: number;
  integration: string;
  /** A channel id, or '' for direct messages to the bot's owner. */
  channel: string;
  topic: string;
  events: string[];
  options: Record<string, string | boolean>;
}

/** The URL Zulip's generator builds: the key and the channel id, then what was chosen. */
export function integrationUrl(bot: Bot, integration: Integration, choice: Choice): string {
  const params = new URLSearchParams({ api_key: bot.api_key });
  if (choice.channel !== '') params.set('stream', choice.channel);
  if (choice.topic.trim() !== '') params.set('topic', choice.topic.trim());
  if (choice.events.length > 0) params.set('only_events', JSON.stringify(choice.events));
  for (const option of integration.url_options) {
    const value = choice.options[option.key];
    if (option.validator === 'check_bool' && value === true) params.set(option.key, 'true');
    if (option.validator === 'check_string' && typeof value === 'string' && value.trim() !== '') params.set(option.key, value.trim());
  }
  return `${siteUrl()}/api/v1/external/${integration.name}?${params.toString()}`;
}

export function IntegrationUrl({ client, bots }: { client: Client; bots: Bot[] }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const [choice, setChoice] = useState<Choice>({ botId: 0, integration: '', channel: '', topic: '', events: [], options: {} });
  const bot = bots.find((b) => b.user_id === choice.botId) ?? bots[0];
  const integration = state.integrations.find((i) => i.name === choice.integration);
  const channels = [...state.streams.values()].sort((a, b) => a.name.localeCompare(b.name));
  const change = (patch: Partial<Choice>) => setChoice({ ...choice, ...patch });
  const url = bot && integration ? integrationUrl(bot, integration, choice) : '';
  if (bots.length === 0) return <section><h2>Integration URL</h2><p class="muted">Create a bot to generate an integration URL.</p></section>;
  return (
    <section class="integration-url">
      <h2>Integration URL</h2>
      <form class="settings-form" onSubmit={(e) => e.preventDefault()}>
        <label>Bot
          <select name="bot" value={bot?.user_id} onChange={(e) => change({ botId: Number((e.target as HTMLSelectElement).value) })}>
            {bots.map((b) => <option key={b.user_id} value={b.user_id}>{b.full_name}</option>)}
          </select>
        </label>
        <label>Integration
          <select name="integration" value={choice.integration} onChange={(e) => change({ integration: (e.target as HTMLSelectElement).value, events: [], options: {} })}>
            <option value="">Choose an integration</option>
            {state.integrations.map((i) => <option key={i.name} value={i.name}>{i.display_name}</option>)}
          </select>
        </label>
        <label>Where to post
          <select name="channel" value={choice.channel} onChange={(e) => change({ channel: (e.target as HTMLSelectElement).value })}>
            <option value="">Direct message to the bot's owner</option>
            {channels.map((c) => <option key={c.stream_id} value={String(c.stream_id)}>#{c.name}</option>)}
          </select>
        </label>
        <label>Topic <span class="muted">(optional: the integration picks one)</span>
          <input name="topic" value={choice.topic} disabled={choice.channel === ''} onInput={(e) => change({ topic: (e.target as HTMLInputElement).value })} />
        </label>
        {integration?.all_event_types && (
          <label>Only these events <span class="muted">(none chosen: all)</span>
            <select name="events" multiple size={5} onChange={(e) => change({ events: [...(e.target as HTMLSelectElement).selectedOptions].map((o) => o.value) })}>
              {integration.all_event_types.map((event) => <option key={event} value={event} selected={choice.events.includes(event)}>{event}</option>)}
            </select>
          </label>
        )}
        {integration?.url_options.map((option) =>
          option.validator === 'check_bool' ? (
            <label key={option.key} class="inline">
              <input type="checkbox" name={option.key} checked={choice.options[option.key] === true} onChange={(e) => change({ options: { ...choice.options, [option.key]: (e.target as HTMLInputElement).checked } })} /> {option.label}
            </label>
          ) : (
            <label key={option.key}>{option.label}
              <input name={option.key} value={String(choice.options[option.key] ?? '')} onInput={(e) => change({ options: { ...choice.options, [option.key]: (e.target as HTMLInputElement).value } })} />
            </label>
          ),
        )}
      </form>
      {url !== '' && (
        <p>
          <label>URL to paste into {integration?.display_name} <input class="generated-url" readOnly value={url} size={60} /></label>{' '}
          <button onClick={() => run(navigator.clipboard.writeText(url), 'Copied.')}>Copy URL</button>
        </p>
      )}
      <p role="status">{outcome}</p>
    </section>
  );
}
