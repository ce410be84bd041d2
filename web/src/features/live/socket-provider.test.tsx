import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { setupI18n } from '../../i18n';
import { ScriptedSocket, latest, openLatest, ready, say, scriptedOptions } from '../../test/scripted-socket';
import { SocketIndicator } from './components/socket-indicator';
import { LiveProvider, useLiveChannel } from './socket-provider';

const heard: string[] = [];

function Concert({ id }: { id: string }): ReactNode {
  const followed = useLiveChannel(`event:${id}`, (message) => heard.push(`${message.type}@${message.channel}`));
  return <span data-testid={`concert-${id}`}>{followed ? 'pushed' : 'polled'}</span>;
}

/** Two panels of one concert, closed one at a time. */
function Panels(): ReactNode {
  const [open, setOpen] = useState(2);
  return (
    <>
      {open > 0 ? <Concert id="c1" /> : null}
      {open > 1 ? <Concert id="c1" /> : null}
      <button type="button" onClick={() => { setOpen((n) => n - 1); }}>
        close one
      </button>
    </>
  );
}

function renderLive(children: ReactNode): ReturnType<typeof render> {
  return render(
    <MantineProvider>
      <LiveProvider accountId="a1" options={scriptedOptions}>
        <SocketIndicator />
        {children}
      </LiveProvider>
    </MantineProvider>,
  );
}

const sentTypes = (): string[] => latest().sent.map((m) => `${(m as { type: string }).type}${'channel' in (m as object) ? `:${(m as { channel: string }).channel}` : ''}`);

describe('live provider', () => {
  beforeAll(async () => {
    await setupI18n('gb');
  });
  beforeEach(() => {
    ScriptedSocket.made = [];
    heard.length = 0;
  });

  it('says connecting, then live once the server accepted the token', async () => {
    const view = renderLive(null);
    expect(screen.getByTestId('live-indicator')).toHaveAttribute('data-phase', 'connecting');
    await openLatest();
    expect(latest().sent[0]).toEqual({ type: 'auth', token: 'token' });
    say(ready());
    expect(screen.getByTestId('live-indicator')).toHaveAttribute('data-phase', 'live');
    expect(screen.getByText('Live')).toBeInTheDocument();
    view.unmount();
    expect(latest().closedWith).toBe(1000);
  });

  it('follows a concert once for all its panels, pushes to each, and stops when the last one goes', async () => {
    renderLive(<Panels />);
    await openLatest();
    say(ready());
    expect(sentTypes()).toEqual(['auth', 'subscribe:event:c1']);
    expect(screen.getAllByTestId('concert-c1').map((e) => e.textContent)).toEqual(['polled', 'polled']);
    say({ type: 'subscribed', channel: 'event:c1', offset: 0, epoch: 'x', recovered: false });
    expect(screen.getAllByTestId('concert-c1').map((e) => e.textContent)).toEqual(['pushed', 'pushed']);
    expect(heard).toEqual(['subscribed@event:c1', 'subscribed@event:c1']);
    act(() => {
      latest().drop(1006);
    });
    expect(screen.getByTestId('live-indicator')).toHaveAttribute('data-phase', 'reconnecting');
    expect(screen.getByTestId('live-indicator')).not.toHaveAttribute('data-reason');
    expect(screen.getAllByTestId('concert-c1').map((e) => e.textContent)).toEqual(['polled', 'polled']);
  });

  it('says why the server closed the socket, in the reader\'s words', async () => {
    renderLive(null);
    await openLatest();
    act(() => {
      latest().drop(1001);
    });
    const indicator = screen.getByTestId('live-indicator');
    expect(indicator).toHaveAttribute('data-reason', 'going_away');
    expect(indicator).toHaveTextContent('Reconnecting…');
  });

  it('unsubscribes a concert when its last panel closes', async () => {
    renderLive(<Panels />);
    await openLatest();
    say(ready());
    act(() => {
      screen.getByText('close one').click();
    });
    expect(sentTypes()).toEqual(['auth', 'subscribe:event:c1']);
    act(() => {
      screen.getByText('close one').click();
    });
    expect(sentTypes()).toEqual(['auth', 'subscribe:event:c1', 'unsubscribe:event:c1']);
  });
});
