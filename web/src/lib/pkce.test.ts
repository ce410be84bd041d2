import { createHash } from 'node:crypto';
import { assertState, base64UrlEncode, createCodeChallenge, createCodeVerifier, createNonce, createState, randomString } from './pkce';
import { sha256 } from './sha256';
import { ClientError, INVALID_STATE } from './errors';

const UNRESERVED = /^[A-Za-z0-9\-_]+$/;

describe('PKCE, state and nonce', () => {
  it('makes a 43-character verifier of unreserved characters', () => {
    const verifier = createCodeVerifier();
    expect(verifier).toHaveLength(43);
    expect(verifier).toMatch(UNRESERVED);
  });

  it('makes 64-character state and nonce from crypto.getRandomValues', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues');
    const state = createState();
    const nonce = createNonce();
    expect(state).toHaveLength(64);
    expect(nonce).toHaveLength(64);
    expect(state).toMatch(UNRESERVED);
    expect(spy).toHaveBeenCalledTimes(2);
    spy.mockRestore();
  });

  it('never repeats itself', () => {
    const seen = new Set(Array.from({ length: 200 }, () => randomString(64)));
    expect(seen.size).toBe(200);
  });

  it('derives the S256 challenge as base64url(SHA-256(verifier))', async () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    // RFC 7636 appendix B.
    expect(await createCodeChallenge(verifier)).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const expected = createHash('sha256').update(verifier).digest('base64url');
    expect(await createCodeChallenge(verifier)).toBe(expected);
  });

  it('has a SHA-256 fallback that agrees with node:crypto', () => {
    for (const text of ['', 'abc', 'x'.repeat(55), 'y'.repeat(64), 'z'.repeat(1000), createCodeVerifier()]) {
      const ours = base64UrlEncode(sha256(new TextEncoder().encode(text)));
      expect(ours).toBe(createHash('sha256').update(text).digest('base64url'));
    }
  });

  it('accepts the echoed state and rejects any other with "Invalid state."', () => {
    const state = createState();
    expect(() => {
      assertState(state, state);
    }).not.toThrow();
    expect(() => {
      assertState(state, createState());
    }).toThrow(INVALID_STATE);
    expect(() => {
      assertState(state, undefined);
    }).toThrow(ClientError);
  });
});
