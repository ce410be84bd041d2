import { CODE_VERIFIER_LENGTH, NONCE_LENGTH, STATE_LENGTH } from './constants';
import { invalidStateError } from './errors';
import { sha256 } from './sha256';

/** RFC 7636 unreserved characters; 64 of them, so `byte & 63` is unbiased. */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

export function randomString(length: number): string {
  const bytes = new Uint8Array(length);
  crypto.getRandomValues(bytes);
  let out = '';
  for (const byte of bytes) out += ALPHABET.charAt(byte & 63);
  return out;
}

export const createState = (): string => randomString(STATE_LENGTH);
export const createNonce = (): string => randomString(NONCE_LENGTH);
export const createCodeVerifier = (): string => randomString(CODE_VERIFIER_LENGTH);

export function base64UrlEncode(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** S256 code challenge: base64url(SHA-256(verifier)). Falls back to a local SHA-256 when
 * WebCrypto is unavailable (plain-http self-hosting on a LAN address). */
export async function createCodeChallenge(verifier: string): Promise<string> {
  const data = new TextEncoder().encode(verifier);
  const subtle = globalThis.crypto.subtle as SubtleCrypto | undefined;
  const digest = subtle ? new Uint8Array(await subtle.digest('SHA-256', data)) : sha256(data);
  return base64UrlEncode(digest);
}

/** Every OAuth answer must echo the state that was sent (spec 5). */
export function assertState(sent: string, received: unknown): void {
  if (typeof received !== 'string' || received !== sent) throw invalidStateError();
}
