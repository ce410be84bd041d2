/**
 * The authentication session pieces (spec 3, 4): authorization code, access token, MFA
 * token and code verifier, kept in cookies; and the auth status flags isAuthorized,
 * hasAuthenticators, hasToken.
 *
 * The refresh token is never seen here: the server keeps it in an HttpOnly cookie sent
 * only to the OAuth endpoints, and sets the readable flag cookie `encore_signed_in` so
 * the app knows there is a session to refresh (after a reload, or once the access token
 * expired). Refreshing is a token call without a token; the browser adds the cookie.
 */
import { useSyncExternalStore } from 'react';
import { COOKIE_DEFAULT_SECONDS, COOKIE_LONG_SECONDS, REFRESH_MARGIN_SECONDS } from '../../lib/constants';
import { deleteCookie, getCookie, setCookie } from '../../lib/cookies';
import { setTokenProvider } from '../../lib/http';

export const COOKIE = {
  code: 'encore_code',
  accessToken: 'encore_access_token',
  mfaToken: 'encore_mfa_token',
  codeVerifier: 'encore_code_verifier',
  /** Set (and cleared) by the server beside its HttpOnly refresh cookie; not a secret. */
  signedIn: 'encore_signed_in',
} as const;

/** Where earlier versions kept the refresh token, readable by script: removed on sight. */
const LEGACY_REFRESH_COOKIE = 'encore_refresh_token';
if (typeof document !== 'undefined') deleteCookie(LEGACY_REFRESH_COOKIE);

export interface TokenSet {
  access_token: string;
}

export interface AuthStatus {
  isAuthorized: boolean;
  hasAuthenticators: boolean;
  hasToken: boolean;
}

let hasAuthenticators = false;
let snapshot: AuthStatus = computeStatus();
const listeners = new Set<() => void>();

function computeStatus(): AuthStatus {
  const hasToken = getCookie(COOKIE.accessToken) !== null || hasRefreshCookie();
  return { isAuthorized: hasToken, hasAuthenticators, hasToken };
}

function emit(): void {
  snapshot = computeStatus();
  for (const listener of listeners) listener();
}

export function getAuthStatus(): AuthStatus {
  return snapshot;
}

/** Calls `listener` after every change of the session's pieces (tokens stored, session
 * cleared); returns the unsubscribe. The live socket re-authenticates on it. */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useAuthStatus(): AuthStatus {
  return useSyncExternalStore(onSessionChange, getAuthStatus, getAuthStatus);
}

export function setHasAuthenticators(value: boolean): void {
  hasAuthenticators = value;
  emit();
}

export function storeCodeVerifier(verifier: string): void {
  setCookie(COOKIE.codeVerifier, verifier, COOKIE_DEFAULT_SECONDS);
}

export function getCodeVerifier(): string | null {
  return getCookie(COOKIE.codeVerifier);
}

export function storeAuthorizationCode(code: string): void {
  setCookie(COOKIE.code, code, COOKIE_LONG_SECONDS);
}

/** Token answer with status E108: the code is cleared and the MFA token stored. */
export function storeMfaToken(mfaToken: string): void {
  deleteCookie(COOKIE.code);
  setCookie(COOKIE.mfaToken, mfaToken, COOKIE_LONG_SECONDS);
  emit();
}

export function getMfaToken(): string | null {
  return getCookie(COOKIE.mfaToken);
}

/** Any other token answer: MFA token and code cleared, the access token stored (the
 * refresh token came as the server's HttpOnly cookie). */
export function storeTokens(tokens: TokenSet): void {
  deleteCookie(COOKIE.mfaToken);
  deleteCookie(COOKIE.code);
  setCookie(COOKIE.accessToken, tokens.access_token, COOKIE_LONG_SECONDS);
  emit();
}

export function getAccessTokenCookie(): string | null {
  return getCookie(COOKIE.accessToken);
}

/** Whether the server said it holds a refresh cookie for this browser. */
export function hasRefreshCookie(): boolean {
  return getCookie(COOKIE.signedIn) !== null;
}

/** Logout and forgot-password clear every piece script can reach (the server clears its
 * HttpOnly refresh cookie at logout). */
export function clearSession(): void {
  for (const name of [...Object.values(COOKIE), LEGACY_REFRESH_COOKIE]) deleteCookie(name);
  hasAuthenticators = false;
  emit();
}

function jwtClaims(token: string): { exp?: unknown; sub?: unknown } | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(part.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(part.length / 4) * 4, '='));
    return JSON.parse(json) as { exp?: unknown; sub?: unknown };
  } catch {
    return null;
  }
}

/** Seconds since the epoch at which a JWT expires, or null when it cannot be read. */
export function jwtExpiry(token: string): number | null {
  const exp = jwtClaims(token)?.exp;
  return typeof exp === 'number' ? exp : null;
}

/** The signed-in account's id, from its access token (no request), or null. */
export function signedInAccountId(): string | null {
  const token = getAccessTokenCookie();
  const sub = token ? jwtClaims(token)?.sub : null;
  return typeof sub === 'string' && sub ? sub : null;
}

export function needsRefresh(token: string | null, nowSeconds: number): boolean {
  if (!token) return true;
  const exp = jwtExpiry(token);
  return exp !== null && exp - nowSeconds < REFRESH_MARGIN_SECONDS;
}

/** Refreshes through the HttpOnly cookie: no token is passed. */
type Refresher = () => Promise<TokenSet>;
let refresher: Refresher | null = null;
let inflight: Promise<string | null> | null = null;

/** Installs the refresh call (features/auth/api.ts) and the token provider of the HTTP client. */
export function installRefresher(fn: Refresher): void {
  refresher = fn;
  setTokenProvider(getValidAccessToken);
}

/** A token good for a while yet, refreshed first when it is about to expire, or when it is
 * `replacing` (a token the server refused: the live socket's 4401). */
export async function getValidAccessToken(replacing?: string): Promise<string | null> {
  const stale = (token: string | null): boolean => needsRefresh(token, Date.now() / 1000) || (replacing !== undefined && token === replacing);
  const access = getAccessTokenCookie();
  if (!stale(access)) return access;
  if (!hasRefreshCookie() || !refresher) return access;
  const run = refresher;
  inflight ??= withRefreshLock(async () => {
    // Another tab may have refreshed while this one waited for the lock: the cookies are shared.
    const current = getAccessTokenCookie();
    if (!stale(current)) return current;
    if (!hasRefreshCookie()) return current;
    try {
      const tokens = await run();
      storeTokens(tokens);
      return tokens.access_token;
    } catch {
      clearSession();
      return null;
    }
  }).finally(() => {
    inflight = null;
  });
  return inflight;
}

/** Refresh tokens rotate (a spent one is refused), so tabs take turns refreshing. */
function withRefreshLock<T>(task: () => Promise<T>): Promise<T> {
  const locks = (typeof navigator === 'undefined' ? undefined : navigator.locks) as LockManager | undefined;
  return locks ? (locks.request('encore-token-refresh', task) as Promise<T>) : task();
}
