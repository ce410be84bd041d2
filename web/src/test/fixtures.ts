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
    avatar: null,
    notes: '',
    phone: null,
    language: 'gb',
    emailVerified: true,
    timeZone: null,
    ...changes,
  };
}
