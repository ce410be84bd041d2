/**
 * The one HTTP client of the app: speaks the server's envelope, applies the timeouts,
 * sends the bearer and x-access-token headers, refreshes the token before it expires
 * (through the token provider) and applies the 401 / 403 rules. Components never call
 * fetch; feature `api.ts` modules call this.
 */
import { TIMEOUT_AUTHENTICATED_MS, TIMEOUT_UNAUTHENTICATED_MS } from './constants';
import { ApiError, ClientError } from './errors';

export interface Envelope<T> {
  success: boolean;
  payload: T;
  error: string | null;
  state?: string;
}

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /** Multipart body (uploads). */
  form?: FormData;
  /** Send the signed-in user's access token (default true). */
  auth?: boolean;
  /** Bearer token to send instead of the access token (the MFA token); no 401/403 rules. */
  bearer?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** A 403 is an answer of this call (shown with the server's reason), not a role failure:
   * no redirect to /403. */
  forbiddenIsAnswer?: boolean;
  /** Let the request finish when the page unloads (a choice saved just before a reload). */
  keepalive?: boolean;
}

interface AuthHooks {
  /** Returns a valid access token, refreshing it first when it is about to expire. */
  getAccessToken: () => Promise<string | null>;
  onUnauthorized: () => void;
  onForbidden: () => void;
}

const hooks: AuthHooks = {
  getAccessToken: () => Promise.resolve(null),
  onUnauthorized: () => undefined,
  onForbidden: () => undefined,
};

export function setTokenProvider(provider: AuthHooks['getAccessToken']): void {
  hooks.getAccessToken = provider;
}

export function setAuthErrorHandlers(handlers: Pick<AuthHooks, 'onUnauthorized' | 'onForbidden'>): void {
  hooks.onUnauthorized = handlers.onUnauthorized;
  hooks.onForbidden = handlers.onForbidden;
}

/** The session ended outside an HTTP call (the live socket's 4403): the same sign-out path
 * as a 401. */
export function reportSessionEnded(): void {
  hooks.onUnauthorized();
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const authenticated = options.auth ?? true;
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  // The app's language (not the browser's), so server-made pages such as the test
  // checkout speak it too.
  if (typeof document !== 'undefined' && document.documentElement.lang) {
    headers['Accept-Language'] = document.documentElement.lang;
  }
  let token: string | null = options.bearer ?? null;
  if (!token && authenticated) {
    token = await hooks.getAccessToken();
    if (!token) {
      hooks.onUnauthorized();
      throw new ApiError('Unauthorized', 401);
    }
  }
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    headers['x-access-token'] = token;
  }
  let body: BodyInit | undefined;
  if (options.form) {
    body = options.form;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const timeoutMs =
    options.timeoutMs ?? (authenticated || options.bearer ? TIMEOUT_AUTHENTICATED_MS : TIMEOUT_UNAUTHENTICATED_MS);
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort();
  }, timeoutMs);
  try {
    return await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers,
      body,
      signal: controller.signal,
      credentials: 'same-origin',
      ...(options.keepalive ? { keepalive: true } : {}),
    });
  } catch (error) {
    if (controller.signal.aborted) throw new ClientError('errors.timeout', 'The server took too long to answer.');
    throw new ClientError('errors.network', error instanceof Error ? error.message : 'Network error');
  } finally {
    clearTimeout(timer);
  }
}

function applyStatusRules(response: Response, options: RequestOptions): void {
  const signedInCall = (options.auth ?? true) && !options.bearer;
  if (!signedInCall) return;
  if (response.status === 401) hooks.onUnauthorized();
  else if (response.status === 403 && !options.forbiddenIsAnswer) hooks.onForbidden();
}

/** Calls the API and returns the whole envelope (OAuth answers need its `state`). */
export async function requestEnvelope<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const response = await send(path, options);
  applyStatusRules(response, options);
  let envelope: Envelope<T> | null = null;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = null;
  }
  if (!envelope || typeof envelope !== 'object') {
    throw new ApiError(response.statusText || `HTTP ${String(response.status)}`, response.status);
  }
  if (!response.ok || !envelope.success) {
    throw new ApiError(envelope.error ?? (response.statusText || `HTTP ${String(response.status)}`), response.status);
  }
  return envelope;
}

/** Calls the API and returns the envelope's payload; `success: false` raises the server's error text. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<T>(path, options)).payload;
}

/** Fetches a binary resource (an avatar) with the same headers and rules. */
export async function requestBlob(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(path, options);
  applyStatusRules(response, options);
  if (!response.ok) throw new ApiError(response.statusText || `HTTP ${String(response.status)}`, response.status);
  return response.blob();
}

/** Fetches a static JSON file shipped with the web app (not enveloped, not authenticated). */
export async function requestStaticJson<T>(path: string): Promise<T> {
  const response = await send(path, { auth: false });
  if (!response.ok) throw new ApiError(response.statusText || `HTTP ${String(response.status)}`, response.status);
  return (await response.json()) as T;
}

export interface ProbeResult {
  status: number;
  headers: Headers;
}

/** Asks for a resource that is not enveloped (a stream playlist) and returns only its status
 * and headers; no token, no 401/403 rules. */
export async function probe(path: string, options: RequestOptions = {}): Promise<ProbeResult> {
  const response = await send(path, { auth: false, ...options });
  await response.body?.cancel();
  return { status: response.status, headers: response.headers };
}
