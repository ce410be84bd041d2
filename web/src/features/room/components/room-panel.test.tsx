import { fireEvent, screen, within } from '@testing-library/react';
import { setupI18n } from '../../../i18n';
import { renderPage } from '../../../test/render';
import { chatMessage as message, chatRoom, roomView as view } from '../../../test/room-fixtures';
import { RoomPanel } from './room-panel';

describe('The room panel', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });

  it('shows text as text (never HTML), links opened safely, each message in its own isolate', () => {
    renderPage(<RoomPanel view={view([message('m1', { text: '<b>bold</b> see https://example.com/x.' })], chatRoom())} />);
    const text = screen.getByTestId('room-message-text');
    expect(text).toHaveAttribute('dir', 'auto');
    expect(text.querySelector('b')).toBeNull();
    expect(text).toHaveTextContent('<b>bold</b> see https://example.com/x.');
    const link = within(text).getByTestId('room-message-link');
    expect(link).toHaveAttribute('href', 'https://example.com/x');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener nofollow ugc');
  });

  it('names the artist and the staff with a badge, and shows the pinned message on top', () => {
    const pinned = message('p', { author: 'Aria V.', badge: 'artist', text: 'Welcome!' });
    renderPage(<RoomPanel view={view([pinned, message('s', { badge: 'staff' })], chatRoom({ pinned }))} />);
    expect(within(screen.getByTestId('room-pinned')).getByText('Welcome!')).toBeInTheDocument();
    const badges = screen.getAllByTestId('room-message-badge').map((badge) => badge.textContent);
    expect(badges).toEqual(['Artist', 'Artist', 'Staff']);
  });

  it('counts the characters of the message and stops at 500', () => {
    renderPage(<RoomPanel view={view([], chatRoom())} />);
    const input = screen.getByTestId('room-input');
    fireEvent.change(input, { target: { value: 'Hi 👏' } });
    expect(screen.getByTestId('room-counter')).toHaveTextContent('4 / 500');
    fireEvent.change(input, { target: { value: 'x'.repeat(520) } });
    expect((input as HTMLInputElement).value).toHaveLength(500);
    expect(screen.getByTestId('room-send')).not.toBeDisabled();
  });

  it('is read-only once posting closed: no composer, no reactions, a note', () => {
    renderPage(<RoomPanel view={view([message('m1')], chatRoom({ postingOpen: false }))} />);
    expect(screen.queryByTestId('room-input')).toBeNull();
    expect(screen.getByTestId('room-read-only')).toHaveTextContent('read-only');
    expect(screen.getByTestId('room-react-applause')).toBeDisabled();
  });

  it('says it is not live while it polls, and shows the meter in figures', () => {
    renderPage(<RoomPanel view={view([], chatRoom(), { pushed: false, polling: true })} />);
    expect(screen.getByTestId('room-polling')).toHaveTextContent('Not live: refreshing every few seconds');
    expect(screen.getByTestId('room')).toHaveAttribute('data-feed', 'polling');
    expect(screen.getByTestId('room-meter')).toHaveAttribute('data-total', '4');
  });

  it('offers moderators their tools, and fans none of them', () => {
    const { unmount } = renderPage(<RoomPanel view={view([message('m1')], chatRoom())} />);
    expect(screen.queryByTestId('room-moderation')).toBeNull();
    unmount();
    renderPage(<RoomPanel view={view([message('m1')], chatRoom({}, { moderator: true, badge: 'artist' }))} />);
    expect(screen.getByTestId('room-moderation')).toBeInTheDocument();
    expect(screen.getByTestId('room-close-toggle')).toHaveTextContent('Close the chat');
  });
});
