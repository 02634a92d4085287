// Zulip's search syntax (https://zulip.com/help/search-for-messages): `channel:`, `topic:`,
// `sender:`, `dm:`, `is:`, `has:` (each may be negated with `-`, operands may be "quoted"), and the
// rest, words and "quoted phrases", as one `search` operand the server matches and highlights.
import type { Narrow } from './requests/messages.js';

const OPERATORS = new Set(['channel', 'stream', 'topic', 'subject', 'sender', 'from', 'dm', 'pm-with', 'is', 'has', 'id', 'near']);

/** Channel names come by name; `channel:` takes the id when a channel of that name is known. */
export function parseSearchQuery(query: string, channelId: (name: string) => number | undefined): Narrow {
  const narrow: Narrow = [];
  const words: string[] = [];
  for (const [part] of query.matchAll(/-?[a-z-]+:"[^"]*"|"[^"]*"|\S+/gi)) {
    const m = /^(-?)([a-z-]+):(.*)$/i.exec(part);
    const operator = m?.[2]?.toLowerCase();
    if (!m || operator === undefined || !OPERATORS.has(operator) || m[3] === '') {
      words.push(part);
      continue;
    }
    const raw = m[3]!.replace(/^"(.*)"$/, '$1');
    const negated = m[1] === '-';
    const term = (op: string, operand: unknown) => narrow.push(negated ? { operator: op, operand, negated } : { operator: op, operand });
    if (operator === 'channel' || operator === 'stream') term('channel', channelId(raw) ?? raw);
    else if (operator === 'subject' || operator === 'topic') term('topic', raw);
    else if (operator === 'from' || operator === 'sender') term('sender', raw);
    else if (operator === 'pm-with' || operator === 'dm') term('dm', raw);
    else term(operator, raw);
  }
  const text = words.join(' ').trim();
  if (text !== '') narrow.push({ operator: 'search', operand: text });
  return narrow;
}
