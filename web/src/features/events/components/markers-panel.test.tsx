import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { setupI18n } from '../../../i18n';
import { ApiError } from '../../../lib/errors';
import type { LiveStatus, Marker } from '../model';
import { MarkersPanel } from './markers-panel';

const api = vi.hoisted(() => ({ listMarkers: vi.fn(), addMarker: vi.fn(), editMarker: vi.fn(), deleteMarker: vi.fn() }));
vi.mock('../api', () => api);

const marker = (id: string, atMs: number, title: string, artist: string | null, source: Marker['source']): Marker => ({
  id,
  atMs,
  title,
  artist,
  source,
  createdAt: '2026-11-24T10:00:00Z',
  updatedAt: '2026-11-24T10:00:00Z',
});

const status = (nowPlaying: LiveStatus['nowPlaying'], recordedSeconds = 30): LiveStatus => ({
  publisherConnected: true,
  recordedSeconds,
  connectedSeconds: recordedSeconds,
  bitrateKbps: 96,
  ended: false,
  segments: 30,
  listeners: 1,
  nowPlaying,
});

function panel(client: QueryClient, live: LiveStatus): ReactNode {
  return (
    <MantineProvider>
      <QueryClientProvider client={client}>
        <MarkersPanel eventId="e1" status={live} />
      </QueryClientProvider>
    </MantineProvider>
  );
}

const TWO = [marker('m1', 4000, 'Intro Jam', null, 'encoder'), marker('m2', 75_500, 'Say "Hi"', 'The Band', 'encoder')];

describe('the live panel’s song titles', () => {
  let client: QueryClient;
  beforeAll(async () => {
    await setupI18n('gb');
  });
  beforeEach(() => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
    api.listMarkers.mockReset().mockResolvedValue(TWO);
    api.addMarker.mockReset();
    api.editMarker.mockReset();
    api.deleteMarker.mockReset();
  });

  it('shows the title playing now and the list; a new title from the socket refreshes the list', async () => {
    const view = render(panel(client, status({ markerId: 'm2', title: 'Say "Hi"', artist: 'The Band', atMs: 75_500 })));
    expect(screen.getByTestId('live-now-playing-title')).toHaveTextContent('Say "Hi"');
    const rows = await screen.findAllByTestId('marker');
    expect(rows.map((row) => within(row).getByTestId('marker-title').textContent)).toEqual(['Intro Jam', 'Say "Hi"']);
    expect(rows[1]).toHaveAttribute('data-current', 'true');
    expect(rows[1]).toHaveTextContent('1:15');
    expect(api.listMarkers).toHaveBeenCalledTimes(1);

    api.listMarkers.mockResolvedValue([...TWO, marker('m3', 90_000, 'Encore', null, 'encoder')]);
    view.rerender(panel(client, status({ markerId: 'm3', title: 'Encore', artist: null, atMs: 90_000 })));
    expect(screen.getByTestId('live-now-playing-title')).toHaveTextContent('Encore');
    await waitFor(() => {
      expect(screen.getAllByTestId('marker')).toHaveLength(3);
    });
  });

  it('adds a title at the live position, edits one and deletes one after confirming', async () => {
    render(panel(client, status(null)));
    expect(screen.getByTestId('live-now-playing')).toHaveTextContent('No song title yet.');
    await screen.findAllByTestId('marker');

    api.addMarker.mockResolvedValue(marker('m3', 30_000, 'Ballad', null, 'artist'));
    const add = screen.getByTestId('marker-add');
    await userEvent.type(within(add).getByTestId('marker-title-input'), 'Ballad');
    await userEvent.click(within(add).getByTestId('marker-submit'));
    expect(api.addMarker).toHaveBeenCalledWith('e1', { title: 'Ballad', artist: null });
    await waitFor(() => {
      expect(within(add).getByTestId('marker-title-input')).toHaveValue('');
    });

    api.editMarker.mockResolvedValue(marker('m1', 4000, 'Intro', 'Guest', 'encoder'));
    await userEvent.click(within(screen.getAllByTestId('marker')[0] as HTMLElement).getByTestId('marker-edit-start'));
    const edit = screen.getByTestId('marker-edit');
    await userEvent.clear(within(edit).getByTestId('marker-title-input'));
    await userEvent.type(within(edit).getByTestId('marker-title-input'), 'Intro');
    await userEvent.type(within(edit).getByTestId('marker-artist-input'), 'Guest');
    await userEvent.click(within(edit).getByTestId('marker-submit'));
    expect(api.editMarker).toHaveBeenCalledWith('e1', 'm1', { title: 'Intro', artist: 'Guest' });
    await waitFor(() => {
      expect(screen.queryByTestId('marker-edit')).not.toBeInTheDocument();
    });

    api.deleteMarker.mockResolvedValue(null);
    await userEvent.click(within(screen.getAllByTestId('marker')[1] as HTMLElement).getByTestId('marker-delete'));
    expect(api.deleteMarker).not.toHaveBeenCalled();
    await userEvent.click(await screen.findByTestId('marker-delete-confirm'));
    expect(api.deleteMarker).toHaveBeenCalledWith('e1', 'm2');
  });

  it('keeps what was typed when the server refuses it, and cannot add before anything is recorded', async () => {
    const view = render(panel(client, status(null)));
    await screen.findAllByTestId('marker');
    api.addMarker.mockRejectedValue(new ApiError('The show holds its 500 markers.', 409));
    const add = screen.getByTestId('marker-add');
    await userEvent.type(within(add).getByTestId('marker-title-input'), 'One more');
    await userEvent.click(within(add).getByTestId('marker-submit'));
    await waitFor(() => {
      expect(api.addMarker).toHaveBeenCalled();
    });
    expect(within(add).getByTestId('marker-title-input')).toHaveValue('One more');

    view.rerender(panel(client, status(null, 0)));
    expect(within(screen.getByTestId('marker-add')).getByTestId('marker-submit')).toBeDisabled();
  });
});
