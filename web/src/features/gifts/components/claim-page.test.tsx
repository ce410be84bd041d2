import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { setupI18n } from '../../../i18n';
import { encoreEvent } from '../../../test/fixtures';
import { renderPage } from '../../../test/render';
import { signedInForEachTest } from '../../../test/signed-in';
import type * as Session from '../../auth/session';
import { ClaimPage } from './claim-page';

/** Whether the reader is signed in (a visitor unless a test says otherwise). */
const auth = vi.hoisted(() => ({ hasToken: false }));
vi.mock('../../auth/session', async (importOriginal) => ({
  ...(await importOriginal<typeof Session>()),
  useAuthStatus: () => ({ hasToken: auth.hasToken, hasAuthenticators: false }),
}));

const PREVIEW = {
  from: 'Fiona Fan',
  email: 'newcomer@example.com',
  eventId: 'e1',
  title: 'Lanterns on the Quay',
  artistName: 'The Testers',
  startsAt: '2026-12-01T20:00:00Z',
};

function renderClaim(answer: Response): ReturnType<typeof vi.fn> {
  const fetch = vi.fn(() => Promise.resolve(answer));
  vi.stubGlobal('fetch', fetch);
  renderPage(
    <Routes>
      <Route path="/claim" element={<ClaimPage />} />
    </Routes>,
    '/claim?token=abc-123',
  );
  return fetch;
}

describe('Claim page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows a signed-out visitor the gift and offers sign-up and sign-in that come back here', async () => {
    const fetch = renderClaim(new Response(JSON.stringify({ success: true, payload: PREVIEW, error: null }), { status: 200 }));
    expect(await screen.findByTestId('claim-what')).toHaveTextContent('Fiona Fan gave you a ticket to Lanterns on the Quay by The Testers.');
    // The token goes in the body, not in the URL.
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toMatch(/\/gifts\/look$/);
    expect(String(init.body)).toContain('abc-123');
    const back = encodeURIComponent('/claim?token=abc-123');
    expect(screen.getByTestId('claim-sign-up')).toHaveAttribute('href', `/auth/signup?redirect=${back}&email=newcomer%40example.com`);
    expect(screen.getByTestId('claim-sign-in')).toHaveAttribute('href', `/auth/login?redirect=${back}&email=newcomer%40example.com`);
  });

  it('says a dead link is dead, in the server\'s words', async () => {
    renderClaim(new Response(JSON.stringify({ success: false, payload: null, error: 'This gift link no longer works.' }), { status: 404 }));
    expect(await screen.findByTestId('claim-invalid')).toHaveTextContent('This gift link no longer works.');
  });

  describe('signed in', () => {
    signedInForEachTest(auth);

    /** The server: the gift, its claim, and its concert, live, as the new holder reads it. */
    function server(): ReturnType<typeof vi.fn> {
      const base = encoreEvent('e1', Date.now() - 60_000, { title: PREVIEW.title, owned: true });
      const concert = { ...base, state: { ...base.state, phase: 'live' } };
      return vi.fn((url: string) => {
        const payload = /\/gifts\/look$/.test(url) ? PREVIEW : /\/gifts\/claim$/.test(url) ? { ...PREVIEW, id: 'g1', status: 'claimed' } : concert;
        return Promise.resolve(new Response(JSON.stringify({ success: true, payload, error: null }), { status: 200 }));
      });
    }

    it('offers Listen now, on the stage, once claimed when the concert plays now', async () => {
      vi.stubGlobal('fetch', server());
      renderPage(
        <Routes>
          <Route path="/claim" element={<ClaimPage />} />
        </Routes>,
        '/claim?token=abc-123',
      );
      fireEvent.click(await screen.findByTestId('claim-submit'));
      await screen.findByTestId('claim-done');
      expect(await screen.findByTestId('listen-now')).toHaveAttribute('href', '/stage/e1');
    });
  });
});
