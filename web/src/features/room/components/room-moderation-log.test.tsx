import { Button } from '@mantine/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import i18n from 'i18next';
import type { ReactNode } from 'react';
import { setupI18n } from '../../../i18n';
import type * as Api from '../api';
import { renderPage } from '../../../test/render';
import { chatMessage, chatReport, chatRoom, moderationEntry, moderatorRoom, roomView } from '../../../test/room-fixtures';
import { clockTime } from '../../events/model';
import type { RoomView } from '../use-room';
import { useRoomActions } from '../use-room';
import { RoomModerationLog } from './room-moderation-log';

const api = vi.hoisted(() => ({ getModerationLog: vi.fn(), restrictChatAccount: vi.fn() }));
vi.mock('../api', async (original) => ({ ...(await original<typeof Api>()), ...api }));

const ben = chatMessage('b1', { accountId: 'ben', author: 'Ben C.', text: 'hello all' });
const cleo = chatMessage('c1', { accountId: 'cleo', author: 'Cleo D.', text: 'rude words' });
const pinned = chatMessage('p1', { accountId: 'artist', author: 'Aria V.', badge: 'artist', text: 'Welcome to the show' });

const LOG = [
  moderationEntry('l1', 'timeout_5m', { accountId: 'ben' }),
  moderationEntry('l2', 'delete', { accountId: 'cleo', messageId: 'gone', detail: 'rude words' }),
  moderationEntry('l3', 'slow_mode', { detail: '30' }),
  moderationEntry('l4', 'pin', { messageId: 'p1' }),
  moderationEntry('l5', 'ban', { accountId: 'stranger' }),
  moderationEntry('l6', 'close'),
  moderationEntry('l7', 'slow_mode', { detail: '0' }),
  moderationEntry('l8', 'timeout_1h', { accountId: 'ben', actorName: 'Rita R.' }),
  // The server names whom, even when the room holds none of their messages.
  moderationEntry('l9', 'ban', { accountId: 'gone', accountName: 'Zed Q.' }),
];

/** The log beside a button that times Ben out, as a moderator's menu does. */
function Panel({ view }: { view: RoomView }): ReactNode {
  const actions = useRoomActions(view);
  return (
    <>
      <Button onClick={() => { actions.restrict.mutate({ accountId: 'ben', kind: 'timeout_5m' }); }}>time out</Button>
      <RoomModerationLog view={view} reports={[chatReport('r1', cleo)]} />
    </>
  );
}

const lines = (): HTMLElement[] => screen.getAllByTestId('room-log-entry');
const what = (line: HTMLElement | undefined): string => (line ? within(line).getByTestId('room-log-what').textContent : '');

describe('The moderation log', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  beforeEach(() => {
    api.getModerationLog.mockReset().mockResolvedValue(LOG);
    api.restrictChatAccount.mockReset().mockResolvedValue(null);
  });
  afterEach(async () => {
    await act(() => i18n.changeLanguage('gb'));
  });

  it('is folded at first and fetched only once opened: who did what to whom, when', async () => {
    renderPage(<Panel view={roomView([ben, pinned], moderatorRoom({ pinned }))} />);
    const toggle = screen.getByTestId('room-log-toggle');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveTextContent('Moderation log');
    expect(api.getModerationLog).not.toHaveBeenCalled();

    await userEvent.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await screen.findAllByTestId('room-log-entry');
    expect(api.getModerationLog).toHaveBeenCalledWith('c1');
    const shown = lines();
    expect(shown.map((line) => line.dataset.action)).toEqual(LOG.map((entry) => entry.action));
    // Names kept in their own direction (FSI … PDI) inside the sentence.
    const plain = shown.map((line) => what(line).replace(/[\u2068\u2069]/g, '').replace(/\u00a0/g, ' '));
    expect(plain).toEqual([
      'timed out Ben C. for 5 min',
      // Cleo is known from the report: the message itself is gone.
      'deleted a message by Cleo D.',
      'set slow mode to 30 s between messages',
      'pinned a message',
      // Nobody the room knows.
      'banned a listener from the artist\'s chats',
      'closed the chat',
      'turned slow mode off',
      'timed out Ben C. for 1 h',
      'banned Zed Q. from the artist\'s chats',
    ]);
    expect(within(shown[0] as HTMLElement).getByTestId('room-log-actor')).toHaveTextContent('Aria V.');
    expect(within(shown[7] as HTMLElement).getByTestId('room-log-actor')).toHaveTextContent('Rita R.');
    expect(within(shown[1] as HTMLElement).getByTestId('room-log-quote')).toHaveTextContent('rude words');
    expect(within(shown[3] as HTMLElement).getByTestId('room-log-quote')).toHaveTextContent('Welcome to the show');
    expect(within(shown[0] as HTMLElement).getByTestId('room-log-when')).toHaveTextContent(clockTime(LOG[0]?.at ?? '', 'en-GB'));
  });

  it('is read again after a moderation action', async () => {
    renderPage(<Panel view={roomView([ben], moderatorRoom())} />);
    await userEvent.click(screen.getByTestId('room-log-toggle'));
    await screen.findAllByTestId('room-log-entry');
    expect(api.getModerationLog).toHaveBeenCalledTimes(1);

    api.getModerationLog.mockResolvedValue([moderationEntry('l9', 'lift', { accountId: 'ben' }), ...LOG]);
    await userEvent.click(screen.getByRole('button', { name: 'time out' }));
    await waitFor(() => {
      expect(lines()).toHaveLength(LOG.length + 1);
    });
    expect(api.getModerationLog).toHaveBeenCalledTimes(2);
    expect(what(lines()[0])).toContain('lifted the timeout or ban of');
  });

  it('says when nothing was done yet, and is not there for fans', async () => {
    api.getModerationLog.mockResolvedValue([]);
    const { unmount } = renderPage(<RoomModerationLog view={roomView([ben], moderatorRoom())} />);
    await userEvent.click(screen.getByTestId('room-log-toggle'));
    expect(await screen.findByTestId('room-log-empty')).toHaveTextContent('No moderation actions yet.');
    unmount();
    renderPage(<RoomModerationLog view={roomView([ben], chatRoom())} />);
    expect(screen.queryByTestId('room-log')).toBeNull();
  });

  it('writes every figure in Persian digits in Persian', async () => {
    await act(async () => {
      await i18n.changeLanguage('ir');
      await i18n.loadNamespaces('room');
    });
    renderPage(<RoomModerationLog view={roomView([ben], moderatorRoom())} />);
    await userEvent.click(screen.getByTestId('room-log-toggle'));
    await screen.findAllByTestId('room-log-entry');
    const log = screen.getByTestId('room-log-list');
    expect(log.textContent).not.toMatch(/[0-9]/);
    expect(what(lines()[0])).toContain('۵');
    expect(what(lines()[2])).toContain('۳۰');
    expect(within(lines()[0] as HTMLElement).getByTestId('room-log-when').textContent).toMatch(/^[۰-۹]{2}:[۰-۹]{2}$/);
  });
});
