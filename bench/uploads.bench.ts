// Uploaded files over HTTP: the server's resident memory while 20 clients each upload a 20 MiB
// file at once (spooled to disk, stored in 1 MiB rows: it should grow by a small part of the
// 400 MiB received), the same while 20 clients download one, and the throughput of both.
import { fmt, record } from './harness.js';
import { basicAuth, startBenchServer, type BenchServer } from './load.js';
import type { Account } from './chat.js';

const GROUP = 'uploads';
const CLIENTS = 20;
const MIB = 1024 * 1024;
const FILE_BYTES = 20 * MIB;

/** Runs `work` while sampling the server's RSS every 100 ms: the peak growth over `before`, in MiB, and the seconds taken. */
async function peakDuring(server: { memory(): Promise<NodeJS.MemoryUsage> }, work: () => Promise<unknown>): Promise<{ growth: number; seconds: number }> {
  const before = (await server.memory()).rss;
  let peak = before;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, (await server.memory()).rss);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  const start = process.hrtime.bigint();
  await work();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  sampling = false;
  await sampler;
  peak = Math.max(peak, (await server.memory()).rss);
  return { growth: (peak - before) / MIB, seconds };
}

export async function run(): Promise<void> {
  // 400 MiB at once take longer to arrive than the default 30 s on a shared machine.
  const parley = await startBenchServer<{ owner: Account }>('parley', { BENCH_BODY_TIMEOUT_MS: '600000' });
  try {
    await measure(parley);
  } finally {
    parley.stop();
  }
}

async function measure(parley: BenchServer<{ owner: Account }>): Promise<void> {
  const { owner } = parley.info;
  const authorization = basicAuth(owner.email, owner.api_key);
  const file = new Blob([Buffer.alloc(FILE_BYTES, 0x61)]);
  const upload = async (): Promise<string> => {
    const form = new FormData();
    form.append('file', file, 'big.bin');
    const reply = await fetch(`${parley.url}/api/v1/user_uploads`, { method: 'POST', headers: { authorization }, body: form });
    const body = (await reply.json()) as { url?: string; msg?: string };
    if (!body.url) throw new Error(`upload failed: ${body.msg}`);
    return body.url;
  };
  const download = async (url: string): Promise<void> => {
    const reply = await fetch(parley.url + url, { headers: { authorization } });
    let bytes = 0;
    for await (const chunk of reply.body!) bytes += (chunk as Uint8Array).length;
    if (bytes !== FILE_BYTES) throw new Error(`download: ${bytes} bytes`);
  };
  // Warm-up: the code paths compiled and the database grown once.
  const url = await upload();
  await download(url);

  const uploads = await peakDuring(parley, () => Promise.all(Array.from({ length: CLIENTS }, upload)));
  const downloads = await peakDuring(parley, () => Promise.all(Array.from({ length: CLIENTS }, () => download(url))));
  const received = { name: 'the bytes in flight', value: (CLIENTS * FILE_BYTES) / MIB };
  record({ group: GROUP, name: `server RSS growth during ${CLIENTS} concurrent ${FILE_BYTES / MIB} MiB uploads (peak)`, value: uploads.growth, unit: 'MiB', baseline: received, target: '<= 10%' });
  record({ group: GROUP, name: `upload throughput, ${CLIENTS} clients`, value: (CLIENTS * FILE_BYTES) / MIB / uploads.seconds, unit: 'MiB/s' });
  record({ group: GROUP, name: `server RSS growth during ${CLIENTS} concurrent downloads of a ${FILE_BYTES / MIB} MiB file (peak)`, value: downloads.growth, unit: 'MiB', baseline: received, target: '<= 10%' });
  record({ group: GROUP, name: `download throughput, ${CLIENTS} clients`, value: (CLIENTS * FILE_BYTES) / MIB / downloads.seconds, unit: 'MiB/s' });
  console.log(`    uploads took ${fmt(uploads.seconds)} s, downloads ${fmt(downloads.seconds)} s`);
}
