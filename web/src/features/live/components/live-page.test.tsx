import { act, screen, within } from '@testing-library/react';
import i18n, { setupI18n } from '../../../i18n';
import { setTokenProvider } from '../../../lib/http';
import { renderPage } from '../../../test/render';
import { LivePage } from './live-page';

const NOW = Date.parse('2026-11-24T10:00:00Z');

const liveNow = {
  concerts: [
    {
      eventId: 'ev-1',
      title: 'Harbour Lights',
      artistName: 'The Tides',
      projectId: 'p-1',
      projectName: 'The Tides',
      startsAt: '2026-11-24T09:50:00Z',
      status: { publisherConnected: true, bitrateKbps: 127.6, recordedSeconds: 75, connectedSeconds: 75, segments: 12, ended: false, listeners: 14 },
      listenersOverTime: [
        { at: new Date(NOW - 20_000).toISOString(), listeners: 9 },
        { at: new Date(NOW - 10_000).toISOString(), listeners: 14 },
      ],
    },
  ],
  recentActivity: [
    { id: 'act-3', kind: 'signup', at: new Date(NOW - 60_000).toISOString(), accountId: 'a-1', accountName: 'Ada Lovelace' },
    { id: 'act-4', kind: 'sale', at: new Date(NOW - 30_000).toISOString(), eventId: 'ev-1', eventTitle: 'Harbour Lights', accountId: 'a-2', accountName: 'Bo Buyer', amount: 900, currency: 'EUR' },
  ],
  position: { offset: 4, epoch: 'ep' },
};

describe('the Live page', () => {
  beforeAll(async () => {
    await setupI18n('gb');
    setTokenProvider(() => Promise.resolve('access-token'));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('without the socket, polls GET /live and says so; shows the concerts live now and the activity, newest first', async () => {
    const fetchMock = vi.fn().mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ success: true, payload: liveNow, error: null }))));
    vi.stubGlobal('fetch', fetchMock);
    renderPage(<LivePage />, '/live');

    const concert = await screen.findByTestId('live-concert');
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/live');
    expect(screen.getByTestId('live-page-polling')).toHaveTextContent('Not live: this page is updated every 10 seconds.');
    expect(concert).toHaveAttribute('data-state', 'onAir');
    expect(within(concert).getByText('Harbour Lights')).toBeInTheDocument();
    expect(within(concert).getByText('The Tides')).toBeInTheDocument();
    // The artist's name opens the artist's page, as everywhere a concert names its artist.
    expect(within(concert).getByTestId('live-concert-artist')).toHaveAttribute('href', '/artists/p-1');
    expect(within(concert).getByTestId('live-concert-listeners')).toHaveTextContent('14');
    expect(within(concert).getByTestId('live-concert-encoder')).toHaveTextContent('Connected');
    expect(within(concert).getByTestId('live-concert-recorded')).toHaveTextContent('1:15');
    expect(within(concert).getByTestId('live-concert-bitrate')).toHaveTextContent(/^128$/);

    const lines = screen.getAllByTestId('live-feed-item');
    expect(lines.map((line) => line.dataset.kind)).toEqual(['sale', 'signup']);
    expect(lines[0]).toHaveTextContent('Bo Buyer\u2069 bought a ticket to \u2068Harbour Lights');
    expect(lines[0]).toHaveTextContent('€9.00');
    expect(lines[1]).toHaveTextContent('Ada Lovelace\u2069 signed up');
  });

  it('shows its figures, times and amounts in Persian digits, and no Latin comma in a time', async () => {
    vi.stubGlobal('fetch', vi.fn().mockImplementation(() => Promise.resolve(new Response(JSON.stringify({ success: true, payload: liveNow, error: null })))));
    await act(() => i18n.changeLanguage('ir'));
    try {
      renderPage(<LivePage />, '/live');
      const concert = await screen.findByTestId('live-concert');
      expect(within(concert).getByTestId('live-concert-listeners')).toHaveTextContent(/^۱۴$/);
      expect(within(concert).getByTestId('live-concert-bitrate')).toHaveTextContent(/^۱۲۸$/);
      expect(within(concert).getByTestId('live-concert-recorded')).toHaveTextContent(/^\u2066۱:۱۵\u2069$/);
      // The page's words, less Mantine's style sheets. Names and titles are Latin words with no
      // digit: any Latin digit or comma is a figure's, an amount's or a time's.
      const page = screen.getByTestId('live-page').cloneNode(true) as HTMLElement;
      for (const style of page.querySelectorAll('style')) style.remove();
      expect(page.textContent).toContain('۱۰');
      expect(page.textContent).not.toMatch(/[,0-9]/);
      for (const time of screen.getAllByTestId('live-feed-time')) expect(time).toHaveTextContent(/^[۰-۹]+:[۰-۹]{2}:[۰-۹]{2}$/);
    } finally {
      await act(() => i18n.changeLanguage('gb'));
    }
  });

  it('names a pass bought, an order refunded and a failed payment without inventing a concert', async () => {
    const at = (ago: number) => new Date(NOW - ago).toISOString();
    const recentActivity = [
      { id: 'p', kind: 'sale', at: at(30_000), eventTitle: 'All-access, 30 days', accountName: 'Bo Buyer', amount: 4900, currency: 'EUR' },
      { id: 'r', kind: 'refund', at: at(20_000), accountName: 'Bo Buyer', amount: 4900, currency: 'EUR' },
      { id: 'f', kind: 'payment_failed', at: at(10_000), accountName: 'Cy Card', amount: 900, currency: 'EUR' },
    ];
    const payload = { concerts: [], recentActivity, position: { offset: 3, epoch: 'ep' } };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ success: true, payload, error: null }))));
    renderPage(<LivePage />, '/live');
    await screen.findAllByTestId('live-feed-item');
    const lines = screen.getAllByTestId('live-feed-item').map((line) => line.textContent);
    expect(lines[0]).toContain('A payment by \u2068Cy Card\u2069 failed');
    expect(lines[1]).toContain('Bo Buyer\u2069 was refunded');
    expect(lines[2]).toContain('Bo Buyer\u2069 bought \u2068All-access, 30 days');
    expect(lines.join(' ')).not.toContain('a concert');
  });

  it('says when nothing is live and nothing happened', async () => {
    const empty = { concerts: [], recentActivity: [], position: { offset: 0, epoch: 'ep' } };
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(new Response(JSON.stringify({ success: true, payload: empty, error: null }))));
    renderPage(<LivePage />, '/live');
    expect(await screen.findByText('No concert is live right now.')).toBeInTheDocument();
    expect(screen.getByTestId('live-feed')).toHaveTextContent('Nothing yet');
  });
});
