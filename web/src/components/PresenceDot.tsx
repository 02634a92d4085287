// A person's presence as a coloured dot with its name for screen readers.
const PRESENCE_LABEL = { active: 'Active', idle: 'Idle', offline: 'Offline' } as const;

export function PresenceDot({ status }: { status: keyof typeof PRESENCE_LABEL }) {
  return <span class={`presence ${status}`} role="img" aria-label={PRESENCE_LABEL[status]} title={PRESENCE_LABEL[status]} />;
}
