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
