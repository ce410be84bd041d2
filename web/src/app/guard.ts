import { redirect } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { meQueryOptions } from '../features/auth/queries';
import { clearSession, getAuthStatus } from '../features/auth/session';
import { ApiError } from '../lib/errors';
import type { Role } from '../lib/roles';
import type { User } from '../features/users/model';
import { decideAccess } from './access';
import { queryClient } from '../lib/query-client';
import { loginPath } from '../features/auth/redirect';

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
