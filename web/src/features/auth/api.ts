/** Sign-in client (spec 4, 5, 7, 9 and docs/api-contract.md). */
import type { Body, Operation, Payload, Query, Schema } from '../../lib/api-types';
import { API_PREFIX, CLIENT_ID, OAUTH_PREFIX } from '../../lib/constants';
import { ClientError } from '../../lib/errors';
import { request, requestEnvelope } from '../../lib/http';
import type { RequestOptions } from '../../lib/http';
import { assertState, createCodeChallenge, createCodeVerifier, createNonce, createState } from '../../lib/pkce';
import { browserTimeZone } from '../../lib/time-zone';
import type { Account } from '../users/model';
import {
  clearSession,
  getAccessTokenCookie,
  getCodeVerifier,
  getMfaToken,
  hasRefreshCookie,
  installRefresher,
  setHasAuthenticators,
  storeAuthorizationCode,
  storeCodeVerifier,
  storeMfaToken,
  storeTokens,
} from './session';
import type { TokenSet } from './session';
import { noteSignedIn } from '../../lib/device-choices';

/** `status: "OK"` with the access token, or `"E108"` with an MFA token (second factor next). */
export type TokenPayload = Payload<'oauth.token'>;

export type Authenticator = Schema<'Authenticator'>;

/** `match_number`: the number this device shows; the approving device picks it among three. */
export type QrStart = Schema<'QrStarted'>;

/** `device` is the requesting browser (its User-Agent, trimmed; may be empty), `place` its IP
 * address as the server sees it (no geolocation); `numbers`: pick the one it shows. */
export type QrInfo = Schema<'QrInfo'>;

export type QrPoll = Schema<'PollAnswer'>;

export type SignInResult = { kind: 'signed-in' } | { kind: 'mfa-required' };

export const redirectUri = (): string => `${window.location.origin}/auth/callback`;

const basicHeader = (): Record<string, string> => ({ Authorization: `Basic ${btoa(`${CLIENT_ID}:`)}` });

/** Omit over each member of a union (a token request is one of three grants). */
type OmitEach<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** What an OAuth operation's caller sends: `client_id` and `state` are added by `oauth`. */
type OAuthBody<Op extends Operation> = OmitEach<Body<Op>, 'client_id' | 'state'>;

/** POST to the OAuth prefix with a fresh state, and check the echoed state. `Op` names the
 * operation, whose document types the body and the answer. */
async function oauth<Op extends Operation>(
  path: string,
  body: OAuthBody<Op>,
  options: Omit<RequestOptions, 'body'> = {},
): Promise<Payload<Op>> {
  const state = createState();
  const envelope = await requestEnvelope<Payload<Op>>(`${OAUTH_PREFIX}${path}`, {
    method: 'POST',
    auth: false,
    ...options,
    body: { ...body, client_id: CLIENT_ID, state },
  });
  assertState(state, envelope.state);
  return envelope.payload;
}

async function newPkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = createCodeVerifier();
  storeCodeVerifier(verifier);
  return { verifier, challenge: await createCodeChallenge(verifier) };
}

function handleTokenPayload(payload: TokenPayload): SignInResult {
  if (payload.status === 'E108') {
    if (!payload.mfa_token) throw new ClientError('errors.unknown', 'Second factor required, but no MFA token.');
    storeMfaToken(payload.mfa_token);
    return { kind: 'mfa-required' };
  }
  // The refresh token is not in the answer: the server set it as an HttpOnly cookie.
  if (!payload.access_token) {
    throw new ClientError('errors.unknown', 'The server sent no tokens.');
  }
  storeTokens({ access_token: payload.access_token });
  noteSignedIn();
  return { kind: 'signed-in' };
}

/** Exchanges the stored authorization code at the token step. */
export async function exchangeCode(code: string): Promise<SignInResult> {
  storeAuthorizationCode(code);
  const payload = await oauth<'oauth.token'>('/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri(),
    code_verifier: getCodeVerifier() ?? '',
  });
  return handleTokenPayload(payload);
}

/** Authorize (e-mail lower-cased) then token. */
export async function signIn(email: string, password: string): Promise<SignInResult> {
  const { challenge } = await newPkce();
  const payload = await oauth<'oauth.authorize'>(
    '/authorize',
    {
      email: email.trim().toLowerCase(),
      password,
      response_type: 'code',
      response_mode: 'query',
      scope: 'openid profile email',
      redirect_uri: redirectUri(),
      code_challenge: challenge,
      code_challenge_method: 'S256',
      nonce: createNonce(),
    },
    { headers: basicHeader() },
  );
  return exchangeCode(payload.code);
}

function mfaBearer(): string {
  const token = getMfaToken();
  if (!token) throw new ClientError('errors.mfaExpired', 'The sign-in attempt has expired. Please sign in again.');
  return token;
}

export async function listAuthenticators(): Promise<Authenticator[]> {
  const state = createState();
  const envelope = await requestEnvelope<Authenticator[]>(`${OAUTH_PREFIX}/authenticators`, {
    auth: false,
    bearer: mfaBearer(),
    query: { code_verifier: getCodeVerifier() ?? '', client_id: CLIENT_ID, state } satisfies Query<'oauth.authenticators'>,
  });
  assertState(state, envelope.state);
  setHasAuthenticators(envelope.payload.length > 0);
  return envelope.payload;
}

/** Enrol a phone at sign-in. An account with two-step sign-in and no phone needs the token of
 * the link e-mailed to it (without one the server e-mails that link and answers 403). */
export async function associatePhone(phoneNumber: string, enrolmentToken?: string | null): Promise<void> {
  await oauth<'oauth.associate'>(
    '/associate',
    {
      authenticator_types: ['oob'],
      oob_channels: ['sms'],
      phone_number: phoneNumber.replace(/[\s()-]/g, ''),
      ...(enrolmentToken ? { enrolment_token: enrolmentToken } : {}),
    },
    { bearer: mfaBearer() },
  );
  setHasAuthenticators(true);
}

export async function completeMfa(bindingCode: string): Promise<SignInResult> {
  const payload = await oauth<'oauth.token'>('/token', {
    grant_type: 'mfa_code',
    mfa_token: mfaBearer(),
    binding_code: bindingCode.trim(),
    code_verifier: getCodeVerifier() ?? '',
  });
  return handleTokenPayload(payload);
}

/** The refresh token travels in the HttpOnly cookie the browser sends to the OAuth prefix;
 * the answer rotates it there. */
export async function refreshTokens(): Promise<TokenSet> {
  const payload = await oauth<'oauth.token'>('/token', { grant_type: 'refresh_token' });
  if (payload.status !== 'OK' || !payload.access_token) throw new ClientError('errors.unknown', 'No tokens.');
  return { access_token: payload.access_token };
}

installRefresher(refreshTokens);

/** Signs out on the server (best effort: the access token, or else the refresh cookie,
 * names the session; the answer clears the refresh cookie) and clears every session piece. */
export async function signOut(): Promise<void> {
  const token = getAccessTokenCookie();
  try {
    if (token || hasRefreshCookie()) {
      await request<null>(`${OAUTH_PREFIX}/logout`, { method: 'POST', auth: false, ...(token ? { bearer: token } : {}) });
    }
  } finally {
    clearSession();
  }
}

export async function forgotPassword(email: string): Promise<void> {
  clearSession();
  const { verifier } = await newPkce();
  await oauth<'oauth.forgot'>('/forgot', { email: email.trim().toLowerCase(), code_verifier: verifier });
  clearSession();
}

export async function resetPassword(token: string, password: string): Promise<void> {
  await oauth<'oauth.reset'>('/reset', { token, password });
}

/** Spends the single-use link of the welcome e-mail: the account's address is verified. */
export async function verifyEmail(token: string): Promise<void> {
  await oauth<'oauth.verify_email'>('/verify-email', { token });
}

/** Sends the signed-in account a new verification link (the old one stops working). */
export async function resendVerification(): Promise<void> {
  await request<null>(`${API_PREFIX}/accounts/me/verification`, { method: 'POST' });
}

/** OAuth registration: does not sign in (spec 4). */
export async function register(email: string, password: string): Promise<Account> {
  const { verifier } = await newPkce();
  const zone = browserTimeZone();
  return oauth<'oauth.register'>('/register', {
    email: email.trim().toLowerCase(),
    password,
    code_verifier: verifier,
    ...(zone !== null ? { time_zone: zone } : {}),
  });
}

/** Account sign-up (409 → "User already exists"). Does not sign in. */
export async function signUp(input: {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}): Promise<Account> {
  const zone = browserTimeZone();
  return request<Account>(`${API_PREFIX}/accounts/signup`, {
    method: 'POST',
    auth: false,
    body: {
      login: input.email.trim().toLowerCase(),
      password: input.password,
      person: { firstName: input.firstName, lastName: input.lastName },
      // Notifications write their times in the visitor's zone from the first one on.
      ...(zone !== null ? { timeZone: zone } : {}),
    } satisfies Body<'accounts.signup'>,
  });
}

export async function startQrSignIn(): Promise<QrStart> {
  const { challenge } = await newPkce();
  return oauth<'oauth.start'>('/token/qr', {
    redirect_uri: redirectUri(),
    code_challenge: challenge,
    code_challenge_method: 'S256',
    scope: 'openid profile email',
    nonce: createNonce(),
    response_type: 'code',
  });
}

export async function pollQrSignIn(pollToken: string): Promise<QrPoll> {
  return oauth<'oauth.poll'>('/token/qr/poll', { poll_token: pollToken });
}

export async function getQrRequest(qrId: string): Promise<QrInfo> {
  return request<QrInfo>(`${OAUTH_PREFIX}/token/qr/${encodeURIComponent(qrId)}`);
}

export async function approveQrRequest(qrId: string, number: number, currentPassword: string): Promise<void> {
  await request<null>(`${OAUTH_PREFIX}/token/qr/${encodeURIComponent(qrId)}/approve`, {
    method: 'POST',
    body: { number, currentPassword } satisfies Body<'oauth.approve'>,
  });
}

/** The link sent to a new login e-mail: the change takes effect. */
export async function confirmEmail(token: string): Promise<void> {
  await oauth<'oauth.confirm_email'>('/confirm-email', { token });
}

export async function fetchMe(): Promise<Account> {
  const list = await request<Payload<'accounts.me'>>(`${API_PREFIX}/accounts/userinfo/me`);
  const me = list[0];
  if (!me) throw new ClientError('errors.unknown', 'No user information.');
  return me;
}
