import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { setupI18n } from '../../../i18n';
import { renderPage } from '../../../test/render';
import { chatMessage, chatReport, moderatorRoom, roomView } from '../../../test/room-fixtures';
import { ScriptedSocket, openLatest, ready, say, scriptedOptions } from '../../../test/scripted-socket';
import { LiveProvider } from '../../live/socket-provider';
import type * as Api from '../api';
import type { RoomView } from '../use-room';
import { useRoomReports } from '../use-reports';
import { RoomReports } from './room-reports';

const api = vi.hoisted(() => ({ getOpenReports: vi.fn(), dismissChatReport: vi.fn(), deleteChatMessage: vi.fn() }));
vi.mock('../api', async (original) => ({ ...(await original<typeof Api>()), ...api }));

const rude = chatMessage('m1', { accountId: 'ben', author: 'Ben C.', text: 'rude before the panel opened' });
const spam = chatMessage('m2', { accountId: 'tom', author: 'Tom T.', text: 'spam while it is open' });
/** Made before the panel opened: the server's open list has it. */
const EARLIER = chatReport('r1', rude, { createdAt: '2030-01-01T11:50:00Z' });
/** Made while the panel is open: the socket brings it. */
const LATER = chatReport('r2', spam, { reporterName: 'Ann B.', createdAt: '2030-01-01T12:01:00Z' });

function Reports({ view }: { view: RoomView }): ReactNode {
  return <RoomReports view={view} reports={useRoomReports(view)} />;
}

const panel = (view: RoomView): ReactNode => (
  <LiveProvider accountId="artist" options={scriptedOptions}>
    <Reports view={view} />
  </LiveProvider>
);

const shown = (): (string | undefined)[] => screen.queryAllByTestId('room-report').map((card) => card.dataset.id);

describe('The reported messages', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  beforeEach(() => {
    ScriptedSocket.made = [];
    api.getOpenReports.mockReset().mockResolvedValue([EARLIER]);
    api.dismissChatReport.mockReset().mockResolvedValue(null);
    api.deleteChatMessage.mockReset().mockResolvedValue(null);
  });

  it('lists the reports made before the panel opened, then the live ones, newest first; a dismissal anywhere drops one', async () => {
    renderPage(panel(roomView([rude, spam], moderatorRoom())));
    await openLatest();
    say(ready('artist'));
    say({ type: 'subscribed', channel: 'event:c1', offset: 0, epoch: 'e', recovered: true });
    await waitFor(() => {
      expect(shown()).toEqual(['r1']);
    });
    expect(api.getOpenReports).toHaveBeenCalledWith('c1');
    expect(screen.getByTestId('room-report')).toHaveTextContent('rude before the panel opened');

    say({ type: 'chat_report', channel: 'event:c1', offset: 1, epoch: 'e', report: LATER });
    expect(shown()).toEqual(['r2', 'r1']);
    // Once each, however often it comes.
    say({ type: 'chat_report', channel: 'event:c1', offset: 2, epoch: 'e', report: LATER });
    expect(shown()).toEqual(['r2', 'r1']);

    // Another moderator dismissed the newer one.
    say({ type: 'chat_report_dismissed', channel: 'event:c1', offset: 3, epoch: 'e', reportId: 'r2' });
    expect(shown()).toEqual(['r1']);

    // This one dismisses the earlier one: DELETE, and it leaves the list.
    await userEvent.click(within(screen.getByTestId('room-report')).getByTestId('room-report-dismiss'));
    expect(api.dismissChatReport).toHaveBeenCalledWith('c1', 'r1');
    await waitFor(() => {
      expect(shown()).toEqual([]);
    });
    expect(screen.getByTestId('room-reports-empty')).toHaveTextContent('No open reports.');
  });

  it('drops the reports of a message once it is deleted', async () => {
    api.getOpenReports.mockResolvedValue([EARLIER, LATER]);
    function Deleting(): ReactNode {
      const [deleted, setDeleted] = useState<string[]>([]);
      return (
        <>
          <button type="button" onClick={() => { setDeleted(['m1']); }}>
            delete m1
          </button>
          {panel(roomView([rude, spam], moderatorRoom(), { deleted }))}
        </>
      );
    }
    renderPage(<Deleting />);
    await waitFor(() => {
      expect(shown()).toEqual(['r2', 'r1']);
    });
    await userEvent.click(screen.getByRole('button', { name: 'delete m1' }));
    expect(shown()).toEqual(['r2']);
  });

  it('asks nothing of a reader who does not moderate the room', () => {
    renderPage(panel(roomView([rude], moderatorRoom({}), { room: null })));
    expect(api.getOpenReports).not.toHaveBeenCalled();
  });
});
