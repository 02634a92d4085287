// What the account pages share: following a link (what it is for, or why it cannot be followed),
// and the outcome of a form.
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';
import { Card } from '../components/Login.js';
import { describeLink } from '../requests/public.js';
import type { LinkInfo } from '../types.js';

/** A link's description once the server answered; `problem` when it cannot be followed. */
export function useLink(key: string): { info?: LinkInfo; problem?: string } {
  const [state, setState] = useState<{ info?: LinkInfo; problem?: string }>({});
  useEffect(() => {
    if (key === '') return;
    describeLink(key).then(
      (info) => setState({ info }),
      (e: unknown) => setState({ problem: e instanceof ApiFailure ? e.message : 'The server cannot be reached.' }),
    );
  }, [key]);
  return state;
}

/** The page of a link that cannot be followed (unknown, expired, used or revoked): the server's words. */
export function LinkProblem({ problem }: { problem: string }) {
  return (
    <Card>
      <p class="error link-problem" role="alert">{problem}</p>
      <p class="login-links"><a href="./">Go to the sign-in page</a></p>
    </Card>
  );
}

/** A link's page: `Page` once the link is known good, else its problem (or a wait). */
export function withLink(Page: ComponentType<{ linkKey: string; info: LinkInfo }>): ComponentType<{ linkKey: string }> {
  return function LinkPage({ linkKey }: { linkKey: string }) {
    const { info, problem } = useLink(linkKey);
    if (problem) return <LinkProblem problem={problem} />;
    if (!info) return <Card><p aria-busy="true">Checking the link…</p></Card>;
    return <Page linkKey={linkKey} info={info} />;
  };
}

/** A form's submission: busy while it runs, the server's message when it fails. */
export function useSubmit(): { busy: boolean; error: string; submit: (work: () => Promise<void>) => void } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = (work: () => Promise<void>) => {
    setBusy(true);
    setError('');
    work().catch((e: unknown) => {
      setError(e instanceof ApiFailure ? e.message : 'The server cannot be reached.');
      setBusy(false);
    });
  };
  return { busy, error, submit };
}

export const field = (event: Event, name: string): string => String(new FormData(event.target as HTMLFormElement).get(name) ?? '');
