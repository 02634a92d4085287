// Zulip's has_link, has_image and has_attachment of a message (the has: narrows), read from its
// rendered HTML: a link is an <a> with an href, an image an inline <img> (proxied or local), an
// attachment a link to, or an image of, an uploaded file (/user_uploads/...).

export interface ContentFeatures {
  link: boolean;
  image: boolean;
  attachment: boolean;
}

const LINK = /<a [^>]*href="/;
const IMAGE = /<img [^>]*src="/;
const ATTACHMENT = /<(?:a [^>]*href|img [^>]*src)="\/user_uploads\//;

export function contentFeatures(html: string): ContentFeatures {
  return { link: LINK.test(html), image: IMAGE.test(html), attachment: ATTACHMENT.test(html) };
}
