// Upload spool directories a killed process left behind are swept when parley starts: a real
// `parley serve` is killed with SIGKILL in the middle of an upload, its spooled bytes stay in the
// temporary directory, and the next `parley serve` removes them, leaving alone those of processes
// that still run.
import http from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { seedDatabase, startServe, stop, type ServeChild } from './serve_process.js';
import { sweepStaleSpools } from '../lib/http/spool.js';
import { silentLogger } from '../lib/logger.js';

const spoolParent = mkdtempSync(join(tmpdir(), 'parley-spool-sweep-'));
const seeded = await seedDatabase(0);
let serving: ServeChild | undefined;
t.teardown(async () => {
  await stop(serving);
  seeded.cleanup();
  rmSync(spoolParent, { recursive: true, force: true });
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(check: () => boolean, what: string): Promise<void> {
  for (const deadline = Date.now() + 15_000; !check(); await pause(20)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

const spoolDirs = () => readdirSync(spoolParent).filter((name) => name.startsWith('parley-upload-'));

/** Starts a multipart upload and sends `bytes` of its file, never the end. */
function unfinishedUpload(url: string, auth: string, bytes: number): http.ClientRequest {
  const boundary = 'sweep-boundary';
  const request = http.request(`${url}/api/v1/user_uploads`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(bytes * 2) },
  });
  request.on('error', () => undefined);
  request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  request.write(Buffer.alloc(bytes, 0x5a));
  return request;
}

t.test('a SIGKILL mid-upload leaves the spool behind; the next start removes it, and only what no running process owns', async (t) => {
  const env = { TMPDIR: spoolParent };
  serving = await startServe(seeded.file, [], env);
  const killedPid = serving.child.pid!;
  const upload = unfinishedUpload(serving.url, seeded.owner.auth, 2 * 1024 * 1024);
  await until(() => spoolDirs().some((name) => readdirSync(join(spoolParent, name)).some((file) => statSync(join(spoolParent, name, file)).size > 0)), 'the spooled bytes');
  const [left] = spoolDirs();
  await stop(serving, 'SIGKILL');
  upload.destroy();
  t.ok(existsSync(join(spoolParent, left!)), `the killed process's spool stays: ${left}`);
  t.match(left!, new RegExp(`^parley-upload-${killedPid}-`), 'named for the process that made it');

  // What else the temporary directory holds: a running process's spool, and older unnamed ones.
  const running = `parley-upload-${process.pid}-AbC123`;
  const unnamedOld = 'parley-upload-Old123';
  const unnamedNew = 'parley-upload-New123';
  for (const name of [running, unnamedOld, unnamedNew]) {
    mkdirSync(join(spoolParent, name));
    writeFileSync(join(spoolParent, name, '0'), 'spooled');
  }
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60_000);
  utimesSync(join(spoolParent, unnamedOld), twoHoursAgo, twoHoursAgo);
  mkdirSync(join(spoolParent, 'not-parley'));

  serving = await startServe(seeded.file, [], env);
  await until(() => !existsSync(join(spoolParent, left!)), "the killed process's spool to go");
  await until(() => !existsSync(join(spoolParent, unnamedOld)), 'the old unnamed spool to go');
  t.same(spoolDirs().sort(), [running, unnamedNew].sort(), "a running process's spool and a recent unnamed one stay");
  t.ok(existsSync(join(spoolParent, 'not-parley')), 'and what is not a spool');
  const reply = await fetch(`${serving.url}/api/v1/users/me`, { headers: { authorization: seeded.owner.auth } });
  t.equal(reply.status, 200, 'the new process serves');
});

t.test("this process's own id: a spool from before it started is a killed predecessor's (a container restarts with the same id)", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-spool-own-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const before = `parley-upload-${process.pid}-Before`;
  const mine = `parley-upload-${process.pid}-Mine12`;
  for (const name of [before, mine]) mkdirSync(join(dir, name));
  const started = new Date(Date.now() - process.uptime() * 1000 - 60_000);
  utimesSync(join(dir, before), started, started);
  const removed = await sweepStaleSpools(dir, silentLogger);
  t.same(removed, [before]);
  t.same(readdirSync(dir), [mine], 'one made since this process started may belong to a request under way');
});
