// How a stored event is shaped for one client: message events carry both the rendered HTML and
// the Markdown source (`_markdown`); a client gets one of them, per its apply_markdown.
import type { DeliveredEvent } from './hub.js';

export function shapeForClient(event: DeliveredEvent, applyMarkdown: boolean): DeliveredEvent {
  if (event.type !== 'message') return event;
  const { _markdown, ...message } = event.message as Record<string, unknown> & { _markdown?: string };
  const content = applyMarkdown || _markdown === undefined ? message.content : _markdown;
  return { ...event, message: { ...message, content, content_type: applyMarkdown ? 'text/html' : 'text/x-markdown' } };
}
