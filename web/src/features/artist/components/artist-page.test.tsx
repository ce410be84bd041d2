import { act, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import i18n, { setupI18n } from '../../../i18n';
import { encoreEvent } from '../../../test/fixtures';
import { renderPage } from '../../../test/render';
import type { EncoreEvent } from '../../events/model';
import type { Artist } from '../model';
import { ArtistPage } from './artist-page';

const START = Date.parse('2030-06-01T20:00:00Z');

const ARTIST: Artist = {
  id: 'p1',
  name: 'Harbour Lights',
  description: 'We play by the sea.\nEvery summer.\n\nFour of us, one boat.',
  image: '/api/v1/artists/p1/image?v=3',
  thumbnail: '/api/v1/artists/p1/image?v=3&size=thumb',
};

/** A concert of the artist's in `phase`, as the server sends it. */
function concert(id: string, phase: EncoreEvent['state']['phase'], extra: Partial<EncoreEvent> = {}): EncoreEvent {
  const upcoming = encoreEvent(id, START);
  return {
    ...upcoming,
    projectId: 'p1',
    title: `Concert ${id}`,
    artistName: 'Harbour Lights',
    price: 1500,
    status: phase === 'live' ? 'live' : phase === 'replay' ? 'ended' : 'published',
    state: {
      ...upcoming.state,
      phase,
      reason: phase === 'live' ? 'on_air' : phase === 'replay' ? 'ended' : null,
      onAir: phase === 'live',
      nextChangeAt: null,
    },
    ...extra,
  };
}

const ok = (payload: unknown): Response => new Response(JSON.stringify({ success: true, payload, error: null }));

/** The server: the artist (or a 404 in the envelope) and its concerts. */
function serve({ artist = ARTIST as Artist | null, concerts = [] as EncoreEvent[] } = {}) {
  const fetchMock = vi.fn((input: RequestInfo | URL) => {
    const url = String(input);
    if (url.startsWith('/api/v1/artists/')) {
      return Promise.resolve(artist ? ok(artist) : new Response(JSON.stringify({ success: false, payload: null, error: 'This artist does not exist.' }), { status: 404 }));
    }
    if (url.startsWith('/api/v1/events?')) return Promise.resolve(ok({ items: concerts, total: concerts.length, page: 1, pageSize: 24 }));
    return Promise.reject(new Error(`unexpected ${url}`));
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function open(): void {
  renderPage(
    <Routes>
      <Route path="/artists/:id" element={<ArtistPage />} />
    </Routes>,
    '/artists/p1',
  );
}

describe("an artist's page", () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  afterEach(async () => {
    vi.unstubAllGlobals();
    await act(() => i18n.changeLanguage('gb'));
  });

  it('shows the picture, the name as the heading, the words as paragraphs and the tab title', async () => {
    serve();
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbour Lights' })).toBeInTheDocument();
    expect(screen.getByTestId('artist-picture')).toHaveAttribute('src', ARTIST.image);
    expect(screen.getByRole('img', { name: 'Harbour Lights' })).toBeInTheDocument();
    const words = within(screen.getByTestId('artist-description'));
    expect(words.getByText(/We play by the sea\.\s+Every summer\./)).toBeInTheDocument();
    expect(words.getByText('Four of us, one boat.')).toBeInTheDocument();
    expect(screen.getByTestId('artist-description').children).toHaveLength(2);
    expect(screen.getByTestId('share')).toBeInTheDocument();
    expect(document.title).toBe('Harbour Lights · Encore');
  });

  it("asks for the project's concerts and shelves them as live now, coming up and replays, each card linking its concert and its artist", async () => {
    const fetchMock = serve({ concerts: [concert('c1', 'live'), concert('c2', 'upcoming'), concert('c3', 'doors'), concert('c4', 'replay')] });
    open();
    const live = await screen.findByTestId('artist-live');
    expect(within(live).getByRole('heading', { level: 2, name: 'Live now' })).toBeInTheDocument();
    expect(within(live).getByText('Concert c1')).toBeInTheDocument();
    const upcoming = screen.getByTestId('artist-upcoming');
    expect(within(upcoming).getByRole('heading', { name: 'Coming up' })).toBeInTheDocument();
    expect(within(upcoming).getAllByTestId('home-event')).toHaveLength(2);
    expect(within(screen.getByTestId('artist-replays')).getByText('Concert c4')).toBeInTheDocument();
    const card = within(live).getByTestId('home-event');
    expect(within(card).getByRole('link', { name: 'Concert c1' })).toHaveAttribute('href', '/concerts/c1');
    expect(within(card).getByRole('link', { name: 'Harbour Lights' })).toHaveAttribute('href', '/artists/p1');
    // A link never holds another: the card itself is no link.
    expect(card.tagName).not.toBe('A');
    expect(screen.getByTestId('artist-concert-count')).toHaveTextContent('Concerts: 4');
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain('/api/v1/events?page=1&pageSize=24&project=p1');
  });

  it('shows initials on a colour without a picture, and a friendly word when no concert is listed', async () => {
    serve({ artist: { ...ARTIST, image: null, thumbnail: null, description: '' } });
    open();
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('No concerts right now');
    expect(screen.getByTestId('artist-initials')).toHaveTextContent('HL');
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.queryByTestId('artist-description')).toBeNull();
    expect(screen.queryByTestId('artist-concert-count')).toBeNull();
  });

  it("is the app's not-found page for an unknown artist (or one with nothing announced)", async () => {
    serve({ artist: null });
    open();
    expect(await screen.findByText("This page's gone fishing.")).toBeInTheDocument();
    expect(screen.queryByTestId('artist-page')).toBeNull();
  });

  it('speaks Persian, its numbers in Persian digits', async () => {
    await act(() => i18n.changeLanguage('ir'));
    serve({ concerts: [concert('c1', 'upcoming'), concert('c2', 'upcoming'), concert('c3', 'upcoming')] });
    open();
    expect(await screen.findByTestId('artist-concert-count')).toHaveTextContent('کنسرت‌ها: ۳');
    expect(within(screen.getByTestId('artist-upcoming')).getByRole('heading', { name: 'به‌زودی' })).toBeInTheDocument();
  });
});
