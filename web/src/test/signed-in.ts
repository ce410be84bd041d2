import { setTokenProvider } from '../lib/http';

/** Inside a describe: each test reads as a signed-in reader. `auth` is the object the file's
 * mock of `useAuthStatus` answers from (`vi.hoisted`); requests carry a token. */
export function signedInForEachTest(auth: { hasToken: boolean }): void {
  beforeAll(() => {
    setTokenProvider(() => Promise.resolve('access-token'));
  });
  beforeEach(() => {
    auth.hasToken = true;
  });
  afterEach(() => {
    auth.hasToken = false;
  });
}
