import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { setupI18n } from '../../../i18n';
import { setTokenProvider } from '../../../lib/http';
import { ScriptedSocket, latest, openLatest, ready, say, scriptedOptions } from '../../../test/scripted-socket';
import { LiveProvider } from '../socket-provider';
import { LivePage } from './live-page';

const status = (listeners: number, extra: Record<string, unknown> = {}) => ({
  publisherConnected: true,
  bitrateKbps: 128,
  recordedSeconds: 30,
  connectedSeconds: 30,
  segments: 5,
  ended: false,
  listeners,
  ...extra,
});

const concert = (eventId: string, title: string) => ({
  eventId,
  title,
  artistName: `${title} band`,
  projectId: 'p',
  projectName: `${title} band`,
  startsAt: '2026-11-24T09:50:00Z',
  status: status(2),
  listenersOverTime: [],
});

const sent = (): string[] => latest().sent.map((m) => [(m as { type: string }).type, (m as { channel?: string }).channel].filter(Boolean).join(':'));

describe('the Live page on the socket', () => {
  let concerts = [concert('ev-1', 'Harbour Lights')];
  const fetchMock = vi.fn(() =>
    Promise.resolve(new Response(JSON.stringify({ success: true, payload: { concerts, recentActivity: [], position: { offset: 0, epoch: 'ep' } }, error: null }))),
  );

  beforeAll(async () => {
    await setupI18n('gb');
    setTokenProvider(() => Promise.resolve('access-token'));
  });
  beforeEach(() => {
    ScriptedSocket.made = [];
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('follows each live concert, shows its figures, adds a show that goes live and marks one that ends, without polling', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <MantineProvider>
        <QueryClientProvider client={client}>
          <MemoryRouter>
            <LiveProvider accountId="a1" options={scriptedOptions}>
              <LivePage />
            </LiveProvider>
          </MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    );
    await openLatest();
    say(ready('a1', ['account:a1', 'staff']));
    expect(screen.getByTestId('live-page')).toHaveAttribute('data-socket', 'live');
    expect(screen.queryByTestId('live-page-polling')).not.toBeInTheDocument();

    const first = await screen.findByTestId('live-concert');
    expect(sent()).toContain('subscribe:event:ev-1');
    say({ type: 'live_status', channel: 'event:ev-1', offset: 1, epoch: 'c', eventId: 'ev-1', status: status(15) });
    expect(within(first).getByTestId('live-concert-listeners')).toHaveTextContent('15');

    // A show goes live: on the feed at once, and GET /live is asked for its figures.
    const calls = fetchMock.mock.calls.length;
    concerts = [concert('ev-1', 'Harbour Lights'), concert('ev-2', 'Winter Strings')];
    say({ type: 'activity', channel: 'staff', offset: 1, epoch: 'ep', activity: { id: 'act-1', kind: 'show_live', at: '2026-11-24T10:00:00Z', eventId: 'ev-2', eventTitle: 'Winter Strings' } });
    expect(screen.getByTestId('live-feed-item')).toHaveTextContent('Winter Strings\u2069 is live');
    await vi.waitFor(() => {
      expect(sent()).toContain('subscribe:event:ev-2');
    });
    expect(fetchMock.mock.calls.length).toBe(calls + 1);
    expect(screen.getAllByTestId('live-concert').map((card) => card.dataset.event)).toEqual(['ev-1', 'ev-2']);

    say({ type: 'activity', channel: 'staff', offset: 2, epoch: 'ep', activity: { id: 'act-2', kind: 'show_ended', at: '2026-11-24T10:05:00Z', eventId: 'ev-1', eventTitle: 'Harbour Lights' } });
    expect(screen.getAllByTestId('live-concert')[0]).toHaveAttribute('data-state', 'ended');
    // An ended show is no longer followed.
    expect(sent()).toContain('unsubscribe:event:ev-1');
    expect(screen.getAllByTestId('live-feed-item').map((line) => line.dataset.kind)).toEqual(['show_ended', 'show_live']);
  });
});
