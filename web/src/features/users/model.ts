import type { Payload, Schema } from '../../lib/api-types';
import type { Role } from '../../lib/roles';
import { isRole } from '../../lib/roles';
import { DEFAULT_LANGUAGE, isLanguageCode, type LanguageCode } from '../../i18n/languages';

/** Account as the server sends it (docs/api-contract.md); `projects` only with userinfo/me. */
export type Account = Schema<'Account'>;

export type AccountPage = Payload<'accounts.list'>;

/** User as the interface sees it (spec 3). */
export interface User {
  id: string;
  fullname: string;
  username: string;
  email: string;
  role: Role;
  projects: string[];
  avatar: string | null;
  notes: string;
  active: boolean;
  useMFA: boolean;
  phone: string | null;
  created_at: string;
  tenantKey: string;
  emailVerified: boolean;
  /** The new e-mail waiting for confirmation, if any (the login stays `email` until then). */
  pendingEmail: string | null;
  /** The IANA zone the account's notifications write times in; null: unknown (UTC). */
  timeZone: string | null;
  /** The account's language (its messages, and a new device's first). */
  language: LanguageCode;
  /** The theme the account chose; null: never chosen (the device's own). */
  theme: Theme | null;
}

export type Theme = 'light' | 'dark';

/** Fullname is built from first and last name. */
export function joinFullname(firstName: string | undefined, lastName: string | undefined): string {
  return [firstName?.trim() ?? '', lastName?.trim() ?? ''].filter((part) => part.length > 0).join(' ');
}

/** When sending, fullname is split on a space into first and last name. */
export function splitFullname(fullname: string): { firstName: string; lastName: string } {
  const text = fullname.trim().replace(/\s+/g, ' ');
  const space = text.indexOf(' ');
  if (space < 0) return { firstName: text, lastName: '' };
  return { firstName: text.slice(0, space), lastName: text.slice(space + 1) };
}

export function toUser(account: Account): User {
  const first = account.roles[0];
  return {
    id: account.id,
    fullname: joinFullname(account.person.firstName, account.person.lastName),
    username: account.login,
    email: account.login,
    role: isRole(first) ? first : 'user',
    projects: (account.projects ?? []).map((project) => project.name),
    avatar: account.avatar ?? null,
    notes: account.notes ?? '',
    active: account.enablement.enabled,
    useMFA: account.enablement.useMFA,
    phone: account.phone ?? null,
    created_at: account.createdAt,
    tenantKey: account.tenantKey,
    // An older server without the field predates the rule: treat the address as proven.
    emailVerified: account.emailVerified ?? true,
    pendingEmail: account.pendingLogin ?? null,
    timeZone: account.timeZone ?? null,
    language: isLanguageCode(account.language) ? account.language : DEFAULT_LANGUAGE,
    theme: account.theme ?? null,
  };
}
