// Slack's message format turned into Zulip's Markdown (Zulip's
// zerver/data_import/slack_message_conversion.py): Block Kit blocks, legacy attachments, `<url|text>`
// links and `<mailto:...>`, and *bold* / _italic_ / ~strike~.
import { globalTimeFromTimestamp, stripPython } from './python.js';
import type { Wild } from './wild.js';

// Slack's mrkdwn markers, only around whole words: the marker must follow punctuation, a space, a
// symbol or a line start, and precede the same or a line end (Zulip's SLACK_*_REGEX).
const BOLD = /((?![*`@\\\p{Pf}\p{Pe}])[\p{P}\p{Zs}\p{S}]|^)(\*)([^*]+)(\*)(?=(?![*`@\\\p{Pi}\p{Ps}])(?:[\p{P}\p{Zs}\p{S}]|$))/gmu;
const STRIKE = /((?![~`@\\\p{Pf}\p{Pe}])[\p{P}\p{Zs}\p{S}]|^)(~)([^~]+)(~)(?=(?![~`@\\\p{Pi}\p{Ps}])(?:[\p{P}\p{Zs}\p{S}]|$))/gmu;
const ITALIC = /((?![_`@\\\p{Pf}\p{Pe}])[\p{P}\p{Zs}\p{S}]|^)(_)([^_]+)(_)(?=(?![_`@\\\p{Pi}\p{Ps}])(?:[\p{P}\p{Zs}\p{S}]|$))/gmu;

/** Zulip's convert_slack_formatting: *bold* -> **bold**, ~strike~ -> ~~strike~~, _italic_ -> *italic*. */
export function convertSlackFormatting(text: string): string {
  const convert = (input: string, pattern: RegExp, marker: string): string =>
    input.replace(pattern, (_match, before: string, _open: string, inner: string) => `${before}${marker}${inner}${marker}`);
  return convert(convert(convert(text, BOLD, '**'), STRIKE, '~~'), ITALIC, '*');
}

const LINK = /^(<)(http:\/\/www\.|https:\/\/www\.|http:\/\/|https:\/\/|ftp:\/\/)?([a-z0-9]+([-.][a-z0-9]+)*)(\.)([a-z]{2,63}(:[0-9]{1,5})?)(\/[^>]*)?(\|)?(?:\|([^>]+))?(>)$/;
// Python's \w in a str pattern: letters, digits (any script) and the underscore.
const MAILTO = /^<((mailto:)?([\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(\.[\p{L}\p{N}_]+)+))(\|)?([\p{L}\p{N}_.-]+@[\p{L}\p{N}_.-]+(\.[\p{L}\p{N}_]+)+)?>$/u;
/** Longer `<...>` spans are left as they are: no link or address is that long, and testing them could take long. */
const MAX_SPAN = 2048;

/**
 * The `<...>` spans the pattern matches, left to right without overlap (Python's re.finditer):
 * a match starts at a `<` and ends at the first `>` after it, as neither pattern allows `>` inside.
 */
function spans(text: string, pattern: RegExp): RegExpExecArray[] {
  const found: RegExpExecArray[] = [];
  let i = text.indexOf('<');
  while (i >= 0) {
    const end = text.indexOf('>', i);
    if (end < 0) break;
    const match = end - i < MAX_SPAN ? pattern.exec(text.slice(i, end + 1)) : null;
    if (match) found.push(match);
    i = text.indexOf('<', match ? end + 1 : i + 1);
  }
  return found;
}

/** Zulip's replace_links: `<url|text>` -> `[text](url)`, `<url>` -> `url`, `<mailto:a@b|a@b>` -> `mailto:a@b`. */
export function replaceLinks(text: string): string {
  let result = text;
  for (const match of spans(text, LINK)) {
    const [url, label] = match[0].slice(1, -1).split(/\|(.*)/s) as [string, string | undefined];
    result = result.replaceAll(match[0], label !== undefined ? `[${label}](${url})` : url);
  }
  for (const match of spans(result, MAILTO)) result = result.replaceAll(match[0], match[1]!);
  return result;
}

const joinPieces = (pieces: readonly string[]): string =>
  pieces
    .map(stripPython)
    .filter((piece) => piece !== '')
    .join('\n\n');

/** Zulip's check_text_block: `{type: "plain_text" | "mrkdwn", text}`. */
function textBlock(value: Wild, plainOnly = false): string {
  value.requireKeys(['type', 'text']);
  value.field('type').oneOf(plainOnly ? ['plain_text'] : ['plain_text', 'mrkdwn']);
  return value.field('text').str();
}

/** Zulip's render_block_element: images only (Zulip has no interactive elements). */
function renderElement(element: Wild): string {
  if (element.at('type').str() !== 'image') return '';
  return `[${element.at('alt_text').str()}](${element.at('image_url').url()})`;
}

function fieldsTable(fields: Wild): string {
  const texts = fields.items().map((field) => textBlock(field));
  // One field shows as it is; more make a two-column table without pipes or newlines in cells.
  if (texts.length === 1) return texts[0]!;
  const cells = texts.map((text) => text.replaceAll('\n', ' ').replaceAll('|', ' '));
  let table = '| | |\n|-|-|\n';
  for (let i = 0; i < cells.length; i += 2) table += `| ${cells[i]} | ${cells[i + 1] ?? ''} |\n`;
  return table;
}

/** Zulip's render_block (https://api.slack.com/reference/block-kit/blocks). */
export function renderBlock(block: Wild): string {
  const type = block.at('type').oneOf(['actions', 'context', 'divider', 'header', 'image', 'input', 'section', 'rich_text']);
  if (type === 'context' && block.get('elements').truthy) {
    const pieces = block
      .at('elements')
      .items()
      .map((element) => (element.at('type').oneOf(['image', 'plain_text', 'mrkdwn']) === 'image' ? renderElement(element) : textBlock(element)));
    return joinPieces(pieces);
  }
  if (type === 'divider') return '----';
  if (type === 'header') return `## ${textBlock(block.at('text'), true)}`;
  if (type === 'image') {
    const url = block.at('image_url').url();
    let alt = block.at('alt_text').str();
    if (block.has('title')) alt = textBlock(block.at('title'), true);
    return `[${alt}](${url})`;
  }
  if (type === 'section') {
    const pieces: string[] = [];
    if (block.has('text')) pieces.push(textBlock(block.at('text')));
    if (block.has('accessory')) pieces.push(renderElement(block.at('accessory')));
    if (block.has('fields')) pieces.push(fieldsTable(block.at('fields')));
    return joinPieces(pieces);
  }
  // actions (buttons), rich_text (repeats `text`), input: nothing to show.
  return '';
}

/** An integer `ts`, or (as Slack sometimes sends it) a string holding a float. */
function attachmentTime(ts: Wild): string {
  if (typeof ts.value === 'boolean' || (typeof ts.value === 'number' && Number.isInteger(ts.value))) return globalTimeFromTimestamp(ts.int());
  const text = ts.str();
  if (!/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(text)) ts.int();
  return globalTimeFromTimestamp(Math.trunc(Number(text)));
}

/** Zulip's render_attachment (https://api.slack.com/reference/messaging/attachments). */
export function renderAttachment(attachment: Wild): string {
  const pieces: string[] = [];
  if (attachment.get('title').truthy) {
    const title = attachment.at('title').str();
    pieces.push(attachment.get('title_link').truthy ? `## [${title}](${attachment.at('title_link').url()})` : `## ${title}`);
  }
  if (attachment.get('pretext').truthy) pieces.push(attachment.at('pretext').str());
  if (attachment.get('text').truthy) pieces.push(attachment.at('text').str());
  if (attachment.has('fields')) {
    const lines: string[] = [];
    for (const field of attachment.at('fields').items()) {
      if (field.has('title') && field.has('value') && field.at('title').truthy && field.at('value').truthy) {
        lines.push(`*${field.at('title').str()}*: ${field.at('value').str()}`);
      } else if (field.get('title').truthy) lines.push(`*${field.at('title').str()}*`);
      else if (field.get('value').truthy) lines.push(field.at('value').str());
    }
    pieces.push(lines.join('\n'));
  }
  if (attachment.get('blocks').truthy) pieces.push(...attachment.at('blocks').items().map(renderBlock));
  if (attachment.get('image_url').truthy) pieces.push(`[](${attachment.at('image_url').url()})`);
  if (attachment.get('footer').truthy) pieces.push(attachment.at('footer').str());
  if (attachment.get('ts').truthy) pieces.push(attachmentTime(attachment.at('ts')));
  return joinPieces(pieces);
}

export { joinPieces };
