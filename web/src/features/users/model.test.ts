import { joinFullname, splitFullname, toUser } from './model';
import type { Account } from './model';

describe('fullname', () => {
  it('is built from first and last name', () => {
    expect(joinFullname('Ada', 'Lovelace')).toBe('Ada Lovelace');
    expect(joinFullname('Ada', '')).toBe('Ada');
    expect(joinFullname('', 'Lovelace')).toBe('Lovelace');
  });

  it('is split on a space into first and last name when sent', () => {
    expect(splitFullname('Ada Lovelace')).toEqual({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(splitFullname('  Ada   King Lovelace ')).toEqual({ firstName: 'Ada', lastName: 'King Lovelace' });
    expect(splitFullname('Cher')).toEqual({ firstName: 'Cher', lastName: '' });
  });

  it('round-trips', () => {
    const parts = splitFullname('Maria da Silva');
    expect(joinFullname(parts.firstName, parts.lastName)).toBe('Maria da Silva');
  });
});

describe('toUser', () => {
  it('maps the server account to the interface user, first role used', () => {
    const account: Account = {
      id: 'a1',
      login: 'fan@example.com',
      person: { firstName: 'Ada', lastName: 'Lovelace' },
      roles: ['admin', 'user'],
      enablement: { enabled: false, useMFA: true },
      createdAt: '2026-11-22T10:00:00Z',
      tenantKey: 'encore',
      avatar: null,
      notes: 'hi',
      phone: '+44 •••• ••• 789',
      language: 'gb',
      emailVerified: true,
      timeZone: 'Asia/Tehran',
    };
    expect(toUser(account)).toMatchObject({
      id: 'a1',
      fullname: 'Ada Lovelace',
      email: 'fan@example.com',
      username: 'fan@example.com',
      role: 'admin',
      active: false,
      useMFA: true,
      notes: 'hi',
      created_at: '2026-11-22T10:00:00Z',
      pendingEmail: null,
      timeZone: 'Asia/Tehran',
    });
  });

  it('shows a new e-mail waiting for confirmation; the login stays until then', () => {
    const account: Account = {
      id: 'a1',
      login: 'fan@example.com',
      person: { firstName: 'Ada', lastName: '' },
      roles: ['user'],
      enablement: { enabled: true, useMFA: false },
      createdAt: '2026-11-22T10:00:00Z',
      tenantKey: 'encore',
      avatar: null,
      notes: '',
      phone: null,
      language: 'gb',
      emailVerified: true,
      timeZone: null,
      pendingLogin: 'new@example.com',
    };
    expect(toUser(account)).toMatchObject({ email: 'fan@example.com', pendingEmail: 'new@example.com' });
  });
});
