import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { setupI18n } from '../../../i18n';
import { ScriptedSocket, openLatest, ready, say, scriptedOptions } from '../../../test/scripted-socket';
import { eventKeys } from '../../events/queries';
import { LiveProvider } from '../../live/socket-provider';
import type { AppNotification, NotificationPage } from '../api';
import { notificationKeys } from '../queries';
import { LiveNotifications } from './live-notifications';

const notice = (id: string, link: string | null): AppNotification => ({
  id,
  type: 'topic',
  title: `Live now: ${id}`,
  body: 'Tune in.',
  sender: null,
  uploadType: null,
  read: false,
  createdAt: '2030-01-01T00:00:00Z',
  link,
});

async function liveWith(client: QueryClient): Promise<void> {
  render(
    <MantineProvider>
      <Notifications />
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/dashboard']}>
          <LiveProvider accountId="a1" options={scriptedOptions}>
            <LiveNotifications />
            <Routes>
              <Route path="/dashboard" element={<p>dashboard</p>} />
              <Route path="/my-events" element={<p>my events page</p>} />
            </Routes>
          </LiveProvider>
        </MemoryRouter>
      </QueryClientProvider>
    </MantineProvider>,
  );
  await openLatest();
  say(ready());
  say({ type: 'subscribed', channel: 'account:a1', offset: 0, epoch: 'e', recovered: true });
}

const push = (offset: number, item: AppNotification): void => {
  say({ type: 'notification', channel: 'account:a1', offset, epoch: 'e', notification: item });
};

describe('live notifications', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  beforeEach(() => {
    ScriptedSocket.made = [];
  });

  it('pops a toast, counts it in the badge, refreshes the concerts when it is about one, and opens its page on a click', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    const menu: NotificationPage = { items: [], total: 0, unread: 0, page: 1, pageSize: 10 };
    client.setQueryData(notificationKeys.list(1, 10, 'all'), menu);
    client.setQueryData(eventKeys.mine(1, 12), { items: [], total: 0, page: 1, pageSize: 12 });
    await liveWith(client);

    push(1, notice('aurora', '/my-events'));
    const toast = await screen.findByTestId('live-toast');
    expect(toast).toHaveTextContent('Live now: aurora');
    expect(client.getQueryData<NotificationPage>(notificationKeys.list(1, 10, 'all'))?.unread).toBe(1);
    expect(client.getQueryState(eventKeys.mine(1, 12))?.isInvalidated).toBe(true);

    // The same one again (a replay): no second toast, no second count.
    push(1, notice('aurora', '/my-events'));
    expect(screen.getAllByTestId('live-toast')).toHaveLength(1);
    expect(client.getQueryData<NotificationPage>(notificationKeys.list(1, 10, 'all'))?.unread).toBe(1);

    act(() => {
      toast.click();
    });
    expect(await screen.findByText('my events page')).toBeInTheDocument();
  });

  it('leaves the concerts alone for a notice about something else', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity } } });
    client.setQueryData(eventKeys.mine(1, 12), { items: [], total: 0, page: 1, pageSize: 12 });
    await liveWith(client);
    push(1, notice('receipt', '/payments/orders/9'));
    await screen.findByTestId('live-toast');
    expect(client.getQueryState(eventKeys.mine(1, 12))?.isInvalidated).toBe(false);
  });
});
