// A settings form's status line: "Saved." or the server's error message.
import { useState } from 'preact/hooks';
import { ApiFailure } from '../api.js';

/** Runs an API call and reports its outcome in a status line. */
export function useOutcome(): [string, (p: Promise<unknown>, done?: string) => void] {
  const [message, setMessage] = useState('');
  const run = (p: Promise<unknown>, done = 'Saved.') => {
    p.then(() => setMessage(done), (e) => setMessage(e instanceof ApiFailure ? e.message : 'Failed.'));
  };
  return [message, run];
}

/** A form's submit handler: runs the request made of its fields (none: nothing to send) and empties the form once it succeeded. */
export function submitting(run: (p: Promise<unknown>, done?: string) => void, request: (data: FormData) => Promise<unknown> | null, done = 'Added.') {
  return (e: Event) => {
    e.preventDefault();
    const form = e.target as HTMLFormElement;
    const p = request(new FormData(form));
    if (p) run(p.then(() => form.reset()), done);
  };
}
