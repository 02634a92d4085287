// The organization's icon; its initial when the icon does not load (or is on another host).
import { useState } from 'preact/hooks';

export function OrgIcon({ name, url }: { name: string; url?: string | undefined }) {
  const [failed, setFailed] = useState(false);
  // Only same-origin paths: the page makes no third-party requests.
  const icon = url ? new URL(url, location.href) : undefined;
  const path = icon && icon.origin === location.origin ? icon.pathname : '';
  if (!path || failed) return <span class="org-icon" aria-hidden="true">{(name || 'p').slice(0, 1).toUpperCase()}</span>;
  return <img class="org-icon" src={path.replace(/^\//, '')} alt="" onError={() => setFailed(true)} />;
}
