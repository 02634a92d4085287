// The users and channels of the organization Zulip's own API examples run against: the "zulip"
// realm that Zulip's populate_db (zilencer/management/commands/populate_db.py, with
// --test-suite) builds for its test suite. Same emails, full names, roles, time zones and user ids,
// the same channels with the same subscribers, default channels, the hamletcharacters group,
// Iago's two drafts and the three linkifiers; see docs/testing.md for what is left out.
import type { ChatFixture } from './fixture.js';

const everyHuman = ['aaron', 'zoe', 'cordelia', 'desdemona', 'hamlet', 'iago', 'othello', 'polonius', 'prospero', 'shiva'] as const;

export const zulipDev = {
  // Zulip's test suite serves this realm at http://zulip.testserver. Its examples compare the
  // `email` of users with their addresses (e.g. "newbie@zulip.com"), so everyone sees them.
  organization: { name: 'Zulip Dev', url: 'http://zulip.testserver', emailAddressVisibility: 1 },
  // Ids as in Zulip's test database: ids 1-5 are its system bots (another realm), then the
  // humans in the order of their emails, then the bots.
  users: {
    aaron: { id: 6, email: 'AARON@zulip.com', fullName: 'aaron', timezone: 'US/Pacific' },
    zoe: { id: 7, email: 'ZOE@zulip.com', fullName: 'Zoe', timezone: 'US/Eastern' },
    cordelia: { id: 8, email: 'cordelia@zulip.com', fullName: "Cordelia, Lear's daughter", timezone: 'UTC' },
    desdemona: { id: 9, email: 'desdemona@zulip.com', fullName: 'Desdemona', role: 'owner', timezone: 'Canada/Newfoundland' },
    hamlet: { id: 10, email: 'hamlet@zulip.com', fullName: 'King Hamlet' },
    iago: { id: 11, email: 'iago@zulip.com', fullName: 'Iago', role: 'admin', timezone: 'US/Eastern' },
    othello: { id: 12, email: 'othello@zulip.com', fullName: 'Othello, the Moor of Venice', timezone: 'US/Pacific' },
    polonius: { id: 13, email: 'polonius@zulip.com', fullName: 'Polonius', role: 'guest', timezone: 'Asia/Shanghai' },
    prospero: { id: 14, email: 'prospero@zulip.com', fullName: 'Prospero from The Tempest' },
    shiva: { id: 15, email: 'shiva@zulip.com', fullName: 'शिव', role: 'moderator', timezone: 'Asia/Kolkata' },
    defaultBot: { id: 16, email: 'default-bot@zulip.com', fullName: 'Zulip Default Bot', bot: 'generic', owner: 'desdemona' },
    webhookBot: { id: 17, email: 'webhook-bot@zulip.com', fullName: 'Zulip Webhook Bot', bot: 'incoming_webhook', owner: 'zoe' },
  },
  // In the order Zulip creates them (do_create_realm's three, then populate_db's), so their ids
  // are Zulip's too.
  channels: {
    Zulip: { description: 'Questions and discussion about using Zulip.', subscribers: ['hamlet', 'iago', 'desdemona'], default: true },
    sandbox: { description: 'Experiment with Zulip here. :test_tube:', subscribers: ['hamlet', 'iago', 'desdemona'], default: true },
    Verona: { description: 'A city in Italy', subscribers: everyHuman, default: true },
    Denmark: { description: 'A Scandinavian country', subscribers: ['hamlet', 'iago', 'othello', 'prospero', 'zoe', 'desdemona', 'shiva'] },
    Scotland: { description: 'Located in the United Kingdom', subscribers: ['iago', 'othello', 'prospero', 'zoe', 'shiva'] },
    Venice: { description: 'A northeastern Italian city', subscribers: ['prospero', 'zoe', 'desdemona'] },
    // Web-public in Zulip; parley has no web-public channels.
    Rome: { description: 'Yet another Italian city', subscribers: ['zoe'] },
    'core team': { description: 'A private channel for core team members', private: true, subscribers: ['hamlet', 'iago', 'desdemona'] },
  },
  userGroups: {
    hamletcharacters: { description: 'Characters of Hamlet', members: ['cordelia', 'hamlet'] },
  },
  // Zulip's test database has random messages; these few give each channel and some
  // conversations one, and like Zulip's, they are read by every human.
  messages: [
    { from: 'hamlet', channel: 'Verona', topic: 'greetings', content: 'Good morrow, Verona.' },
    { from: 'iago', channel: 'Denmark', topic: 'castle', content: 'Something is rotten in the state of Denmark.' },
    { from: 'othello', channel: 'Scotland', topic: 'weather', content: 'So foul and fair a day I have not seen.' },
    { from: 'prospero', channel: 'Venice', topic: 'tempest', content: 'We are such stuff as dreams are made on.' },
    { from: 'zoe', channel: 'Rome', topic: 'greetings', content: 'Friends, Romans, countrymen, lend me your ears.' },
    { from: 'desdemona', channel: 'core team', topic: 'plans', content: 'The core team meets on Thursday.' },
    { from: 'cordelia', to: ['hamlet'], content: 'Nothing will come of nothing.' },
    { from: 'hamlet', to: ['iago', 'othello'], content: 'To be, or not to be, that is the question.' },
  ],
  setup(chat, { users }) {
    for (const key of everyHuman) chat.api.messageFlags.markAllAsRead(users[key]!.user_id);
    // Zulip's populate_db gives Iago two drafts (its cURL examples delete one) and adds three linkifiers.
    chat.api.drafts.create(users.iago!.user_id, {
      drafts: [
        { type: '', to: [], topic: 'Release Notes', content: 'Release 4.0 will contain ...' },
        { type: '', to: [], topic: 'Release Notes', content: 'Release 4.0 will contain many new features such as ... ' },
      ],
    });
    const linkifiers = [
      ['#D(?P<id>[0-9]{2,8})', 'https://github.com/zulip/zulip-desktop/pull/{id}'],
      ['zulip-mobile#(?P<id>[0-9]{2,8})', 'https://github.com/zulip/zulip-mobile/pull/{id}'],
      ['zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})', 'https://github.com/zulip/{repo}/pull/{id}'],
    ] as const;
    for (const [pattern, urlTemplate] of linkifiers) chat.api.linkifiers.add(users.iago!.user_id, { pattern, urlTemplate });
  },
} as const satisfies ChatFixture;
