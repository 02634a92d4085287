// Push figures: the E2EE test notification round trip in-process (read devices, encrypt, POST to
// the bouncer stand-in, apply its answer) against a bare node-fetch POST of the same body to the
// same stand-in, for one device and for ten.
import Database from 'better-sqlite3';
import fetch from 'node-fetch';
import { createChatServer, type ChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { keyParams, newPhone, startBouncer, tokenParams, type StandInBouncer } from '../test/bouncer.js';
import { perSecond, record } from './harness.js';

async function addActiveDevice(chat: ChatServer, userId: number, bouncer: StandInBouncer, kind: 'fcm' | 'apns'): Promise<void> {
  const phone = newPhone(kind);
  const { device_id: deviceId } = chat.api.push.registerClientDevice(userId) as { device_id: number };
  const active = new Promise<void>((resolve) => {
    const stop = chat.events.subscribe(userId, (event) => {
      if (event.device_id === deviceId && event.push_token_id) {
        stop();
        resolve();
      }
    });
  });
  const key = keyParams(bouncer, phone);
  const token = tokenParams(bouncer, phone);
  chat.api.push.register(userId, {
    deviceId,
    pushKey: String(key.push_key),
    pushKeyId: Number(key.push_key_id),
    tokenKind: phone.kind,
    tokenId: phone.tokenId,
    bouncerPublicKey: token.bouncer_public_key!,
    encryptedPushRegistration: token.encrypted_push_registration!,
  });
  await active;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Median ms per call of each, measured in alternating batches so both see the same machine load. */
async function interleaved(bare: () => Promise<void>, parley: () => Promise<void>, rounds = 9, batch = 50): Promise<{ bareMs: number; parleyMs: number }> {
  const time = async (fn: () => Promise<void>): Promise<number> => {
    const start = process.hrtime.bigint();
    for (let i = 0; i < batch; i++) await fn();
    return Number(process.hrtime.bigint() - start) / 1e6 / batch;
  };
  for (let i = 0; i < 20; i++) {
    await bare();
    await parley();
  }
  const bareTimes: number[] = [];
  const parleyTimes: number[] = [];
  for (let r = 0; r < rounds; r++) {
    bareTimes.push(await time(bare));
    parleyTimes.push(await time(parley));
  }
  return { bareMs: median(bareTimes), parleyMs: median(parleyTimes) };
}

async function roundTrip(devices: number): Promise<void> {
  const bouncer = await startBouncer();
  const db = new Database(':memory:');
  const chat = createChatServer(db, {
    logger: silentLogger,
    push: { bouncerUrl: bouncer.url, serverId: bouncer.serverId, serverKey: bouncer.serverKey },
  });
  const { user_id: userId } = await chat.admin.initOrganization({ email: 'bench@example.com', fullName: 'Bench' });
  for (let i = 0; i < devices; i++) await addActiveDevice(chat, userId, bouncer, i % 2 === 0 ? 'fcm' : 'apns');

  await chat.api.push.testNotification(userId, {});
  const body = JSON.stringify(bouncer.requests.at(-1)!.body);
  const headers = {
    authorization: 'Basic ' + Buffer.from(`${bouncer.serverId}:${bouncer.serverKey}`).toString('base64'),
    'content-type': 'application/json',
    'user-agent': 'ZulipServer/bench',
  };
  const notifyUrl = `${bouncer.url}/api/v1/remotes/push/e2ee/notify`;
  const bare = async (): Promise<void> => {
    const response = await fetch(notifyUrl, { method: 'POST', headers, body });
    await response.text();
  };
  const parley = async (): Promise<void> => {
    await chat.api.push.testNotification(userId, {});
  };
  const { bareMs, parleyMs } = await interleaved(bare, parley);
  if (bouncer.problems.length > 0) throw new Error(`stand-in saw problems: ${bouncer.problems[0]}`);
  record({
    group: 'push',
    name: `test notification round trip, ${devices} device${devices === 1 ? '' : 's'} (in-process)`,
    value: perSecond(parleyMs),
    unit: 'round trips/s',
    baseline: { name: 'bare node-fetch POST of the same body', value: perSecond(bareMs) },
    target: '>= 60%',
  });
  await chat.close();
  db.close();
  await bouncer.close();
}

export async function run(): Promise<void> {
  await roundTrip(1);
  await roundTrip(10);
}
