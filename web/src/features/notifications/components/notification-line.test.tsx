import { act, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import i18n, { setupI18n } from '../../../i18n';
import { renderPage } from '../../../test/render';
import type { AppNotification } from '../api';
import { NotificationLine } from './notification-line';

const item = (over: Partial<AppNotification>): AppNotification => ({
  id: 'n1',
  type: 'topic',
  title: 'Order confirmed',
  body: 'You paid 9.00 EUR for Opening Night.',
  sender: null,
  uploadType: null,
  read: false,
  createdAt: '2030-01-01T00:00:00Z',
  link: '/receipts/o1',
  ...over,
});

describe('A notification line', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });

  it('says what happened with no kind label under a topic', () => {
    renderPage(<NotificationLine item={item({})} onRead={() => undefined} />);
    expect(screen.getByText('Order confirmed')).toBeInTheDocument();
    expect(screen.queryByTestId('notification-subtitle')).toBeNull();
    expect(screen.queryByText('New topic')).toBeNull();
  });

  it('names the sender of a message', () => {
    renderPage(<NotificationLine item={item({ type: 'message', sender: 'Bea Boss' })} onRead={() => undefined} />);
    expect(screen.getByTestId('notification-subtitle')).toHaveTextContent('From Bea Boss');
  });

  it('opens the order it is about and marks itself read', async () => {
    const read = vi.fn();
    renderPage(
      <Routes>
        <Route path="/" element={<NotificationLine item={item({})} onRead={read} />} />
        <Route path="/receipts/:orderId" element={<p>receipt page</p>} />
      </Routes>,
    );
    fireEvent.click(screen.getByTestId('notification'));
    expect(await screen.findByText('receipt page')).toBeInTheDocument();
    expect(read).toHaveBeenCalledWith('n1');
  });

  it('names itself by its title for a screen reader: what it marks read, unread; what it is, read', () => {
    const { unmount } = renderPage(<NotificationLine item={item({})} onRead={() => undefined} />);
    expect(screen.getByTestId('notification')).toHaveAccessibleName('Mark as read: Order confirmed');
    unmount();
    renderPage(<NotificationLine item={item({ read: true })} onRead={() => undefined} />);
    expect(screen.getByTestId('notification')).toHaveAccessibleName('Order confirmed');
  });

  it('dates itself as Intl does in English', () => {
    renderPage(<NotificationLine item={item({})} onRead={() => undefined} />);
    expect(screen.getByTestId('notification')).toHaveTextContent(new Date('2030-01-01T00:00:00Z').toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' }));
  });

  it('dates itself in Persian with Persian digits and no Latin comma', async () => {
    await act(() => i18n.changeLanguage('ir'));
    try {
      renderPage(<NotificationLine item={item({ title: 'سفارش تأیید شد', body: 'پرداخت انجام شد.' })} onRead={() => undefined} />);
      const text = screen.getByTestId('notification').textContent;
      expect(text).toMatch(/[۰-۹]/);
      expect(text).not.toMatch(/[,0-9]/);
    } finally {
      await act(() => i18n.changeLanguage('gb'));
    }
  });
});
