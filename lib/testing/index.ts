// parley/testing: the test kit for bots and integrations (docs/testing.md). createTestChat builds
// a server in memory from a fixture, on a clock the test moves, with snapshots, event recorders
// and a real address for clients in other processes.
import type { ChatOptions } from '../context.js';
import { createTestClock } from './clock.js';
import { DEFAULT_FIXTURE, type ChatFixture } from './fixture.js';
import { TestChat, type ServerOptions } from './test_chat.js';

export { createTestClock, DEFAULT_START_MS, type TestClock } from './clock.js';
export type { EventPattern, EventRecorder, NextOptions, RecordedEvent } from './recorder.js';
export type { ChatSnapshot } from './test_chat.js';
export { TestChat } from './test_chat.js';
export type {
  BuiltFixture,
  ChatFixture,
  FixtureAccount,
  FixtureChannel,
  FixtureChannelInfo,
  FixtureMessage,
  FixtureUser,
  FixtureUserGroup,
} from './fixture.js';
export { DEFAULT_FIXTURE } from './fixture.js';
export { zulipDev } from './zulip_dev.js';

export interface TestChatOptions {
  /** Where the test clock starts, in ms since the epoch; default 2025-01-01T00:00:00Z. */
  start?: number;
  /** More options of the server (ChatOptions); its clock and timers are the test clock's. */
  chat?: Omit<ChatOptions, 'clock' | 'timers' | 'realm'>;
}

/** The organization URL of a fixture that names none: parley's default. */
const DEFAULT_URL = 'http://localhost:9991';
/**
 * A test chat's database is in memory: no other process commits to it, so waiting polls need not
 * look for other processes' commits (which, on the test clock, would fire at every 100 ms advanced).
 */
const CROSS_PROCESS_POLL_MS = 3_600_000;

type UserKeys<F> = F extends { users: infer U } ? Extract<keyof U, string> : never;
type ChannelKeys<F> = F extends { channels: infer C } ? Extract<keyof C, string> : 'general' | 'sandbox';

/** The chat createTestChat(fixture) gives: `let chat: TestChatOf<typeof zulipDev>`. */
export type TestChatOf<F extends ChatFixture> = TestChat<UserKeys<F>, ChannelKeys<F>>;

/**
 * A parley server on a database in memory holding `fixture` (default: an owner and parley's
 * initial channels), on a test clock. Its users, with their API keys, are `chat.users`.
 */
export function createTestChat(fixture?: undefined, options?: TestChatOptions): Promise<TestChat<'owner', 'general' | 'sandbox'>>;
export function createTestChat<const F extends ChatFixture>(fixture: F, options?: TestChatOptions): Promise<TestChatOf<F>>;
export async function createTestChat(fixture?: ChatFixture, options: TestChatOptions = {}): Promise<TestChat> {
  const chosen: ChatFixture = fixture ?? DEFAULT_FIXTURE;
  const clock = createTestClock(options.start);
  const organization = chosen.organization ?? {};
  const serverOptions: ServerOptions = {
    ...options.chat,
    events: { crossProcessPollMs: CROSS_PROCESS_POLL_MS, ...options.chat?.events },
    // The bot servers a test starts listen on 127.0.0.1.
    outgoingWebhooks: { allowPrivateAddresses: true, ...options.chat?.outgoingWebhooks },
    realm: { name: organization.name ?? 'parley', url: organization.url ?? DEFAULT_URL, emailAddressVisibility: organization.emailAddressVisibility ?? 1 },
    clock: clock.now,
    timers: clock.timers,
  };
  return TestChat.build(chosen, clock, serverOptions);
}
