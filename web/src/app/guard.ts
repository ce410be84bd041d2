import { redirect } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { meQueryOptions } from '../features/auth/queries';
import { clearSession, getAuthStatus } from '../features/auth/session';
import { ApiError } from '../lib/errors';
import type { Role } from '../lib/roles';
import type { User } from '../features/users/model';
import { decideAccess } from './access';
import { queryClient } from './query-client';

export function loginPath(from?: string): string {
  // The default landing (root → home) is not worth remembering: sign-in lands on the dashboard.
  return from && from !== '/' && from !== '/home' ? `/auth/login?redirect=${encodeURIComponent(from)}` : '/auth/login';
}

/** Only same-site paths are followed after sign-in (of the sign-in pages, only the QR approval). */
export function safeRedirect(target: string | null): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/dashboard';
  if (target.startsWith('/auth') && !target.startsWith('/auth/qr?')) return '/dashboard';
  return target;
}

/** Loader for routes with a roles list: fetch userinfo/me, then allow, sign in or 403. */
export function requireRoles(roles: readonly Role[]) {
  return async ({ request }: LoaderFunctionArgs): Promise<User> => {
    const url = new URL(request.url);
    const from = url.pathname + url.search;
    if (!getAuthStatus().hasToken) throw redirect(loginPath(from));
    let user: User;
    try {
      user = await queryClient.ensureQueryData(meQueryOptions());
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        clearSession();
        queryClient.clear();
        throw redirect(loginPath(from));
      }
      throw error;
    }
    const decision = decideAccess(roles, getAuthStatus().hasToken, user.role);
    if (decision === 'login') throw redirect(loginPath(from));
    if (decision === 'forbidden') throw redirect('/403');
    return user;
  };
}

/** Sign-in pages: someone already signed in goes to the dashboard. */
export function redirectIfSignedIn(): Response | null {
  return getAuthStatus().hasToken ? redirect('/dashboard') : null;
}
