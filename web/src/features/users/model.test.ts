import { joinFullname, splitFullname, toUser } from './model';
import { account as fixture } from '../../test/fixtures';

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
    const account = fixture({
      person: { firstName: 'Ada', lastName: 'Lovelace' },
      roles: ['admin', 'user'],
      enablement: { enabled: false, useMFA: true },
      notes: 'hi',
      phone: '+44 •••• ••• 789',
      timeZone: 'Asia/Tehran',
    });

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
    const account = fixture({ pendingLogin: 'new@example.com' });

    expect(toUser(account)).toMatchObject({ email: 'fan@example.com', pendingEmail: 'new@example.com' });
  });
});
