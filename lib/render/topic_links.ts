// Zulip's topic_links: the links a topic name carries on message objects, from linkifier matches
// (in the linkifiers' order) and then raw URLs (found by linkify-it), without overlaps.
import { LinkifyIt } from 'linkify-it';
import { isSafeUrl, linkifiersThatMayMatch, searchLinkifier, type CompiledLinkifier } from './linkifier_patterns.js';

export interface TopicLink {
  text: string;
  url: string;
}

interface Candidate extends TopicLink {
  /** For a linkifier match, where the whole match starts (its leading delimiter included). */
  index: number;
}

const urls = new LinkifyIt({ fuzzyLink: true, fuzzyEmail: false });

// Zulip splits the topic on these before looking for a URL at the start of each piece.
const URL_SPLITTER = /[ !;),'"]/;

export function topicLinks(topic: string, linkifiers: readonly CompiledLinkifier[]): TopicLink[] {
  const candidates: Candidate[] = [];
  // In order of precedence: each linkifier's matches by position, then raw URLs.
  for (const index of linkifiersThatMayMatch(linkifiers, topic)) candidates.push(...linkifierMatches(topic, linkifiers[index]!));
  candidates.push(...rawUrls(topic));

  const kept: Candidate[] = [];
  for (const candidate of candidates) {
    const overlaps = kept.some(
      (k) => Math.max(candidate.index, k.index) < Math.min(candidate.index + candidate.text.length, k.index + k.text.length),
    );
    if (!overlaps) kept.push(candidate);
  }
  kept.sort((a, b) => a.index - b.index);
  return kept.map(({ text, url }) => ({ text, url }));
}

function linkifierMatches(topic: string, linkifier: CompiledLinkifier): Candidate[] {
  const found: Candidate[] = [];
  let from = 0;
  while (from < topic.length) {
    const match = searchLinkifier(linkifier, topic, from);
    if (match === null) break;
    // The trailing delimiter may start the next match.
    const next = match.end;
    from = next > from ? next : from + 1;
    if (match.text === '') continue;
    const url = linkifier.url(match.groups);
    if (url === null || !isSafeUrl(url)) continue;
    found.push({ text: match.text, url, index: match.index });
  }
  return found;
}

function rawUrls(topic: string): Candidate[] {
  const found: Candidate[] = [];
  let offset = 0;
  for (const piece of topic.split(URL_SPLITTER)) {
    const match = urls.match(piece)?.[0];
    // Zulip's re.match: only a URL at the start of the piece counts.
    if (match !== undefined && match.index === 0) {
      found.push({ text: match.raw, url: withScheme(match.schema, match.raw), index: offset });
    }
    offset += piece.length + 1;
  }
  return found;
}

function withScheme(schema: string, raw: string): string {
  if (schema === '') return `https://${raw}`;
  if (schema === '//') return `https:${raw}`;
  return raw;
}
