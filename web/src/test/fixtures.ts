import type { EncoreEvent, ManagedTier } from '../features/events/model';
import type { Schema } from '../lib/api-types';
import type { Account } from '../features/users/model';

/** An account as the server sends it: a verified fan with no extras, `changes` on top. */
export function account(changes: Partial<Account> = {}): Account {
  return {
    id: 'a1',
    login: 'fan@example.com',
    person: { firstName: 'Ada', lastName: '' },
    roles: ['user'],
    enablement: { enabled: true, useMFA: false },
    createdAt: '2026-11-22T10:00:00Z',
    tenantKey: 'encore',
    theme: null,
    streamQuality: null,
    avatar: null,
    notes: '',
    phone: null,
    language: 'gb',
    emailVerified: true,
    timeZone: null,
    ...changes,
  };
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A concert as the server sends it: published and upcoming, 90 minutes from `start` (doors
 * 15 minutes before it, the replay for a day), not owned; `changes` on top. */
export function encoreEvent(id: string, start: number, changes: Partial<EncoreEvent> = {}): EncoreEvent {
  const at = (offset: number): string => new Date(start + offset).toISOString();
  return {
    id,
    projectId: 'p',
    title: id,
    artistName: 'A',
    description: '',
    image: null,
    thumbnail: null,
    startsAt: at(0),
    durationMinutes: 90,
    accessUntil: at(24 * HOUR),
    price: 1000,
    currency: 'EUR',
    capacity: null,
    seatsLeft: null,
    status: 'published',
    access: 'upcoming',
    state: {
      phase: 'upcoming',
      reason: null,
      doorsAt: at(-15 * MINUTE),
      startsAt: at(0),
      endsAt: at(90 * MINUTE),
      replayUntil: at(24 * HOUR),
      onAir: false,
      nextChangeAt: at(-15 * MINUTE),
    },
    owned: false,
    reminder: false,
    notOnSale: null,
    ...changes,
  };
}

/** A concert's ticket tier as the concert page reads it: on sale, unlimited, €10. */
export function aTier(id: string, changes: Partial<Schema<'Tier'>> = {}): Schema<'Tier'> {
  return {
    id,
    eventId: 'e1',
    name: id,
    description: '',
    price: 1000,
    minimumPrice: null,
    currency: 'EUR',
    capacity: null,
    seatsLeft: null,
    saleOpensAt: null,
    saleClosesAt: null,
    isDefault: false,
    onSale: true,
    soldOut: false,
    notOnSale: null,
    ...changes,
  };
}

/** A tier as its managers read it: `aTier` with what only they see. */
export function aManagedTier(id: string, changes: Partial<ManagedTier> = {}): ManagedTier {
  return { ...aTier(id), hidden: false, seatsTaken: 0, position: 0, ...changes };
}
