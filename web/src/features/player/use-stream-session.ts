/**
 * A fan's listening session: opens it on the server, probes the playlist, waits while the
 * artist has not started (404), plays with the stream engine once it is there, and stops for
 * good when the server denies it (another device, access ended). The states and their
 * transitions are `sessionReducer` (model.ts); this hook runs the effects.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useReducer, useRef } from 'react';
import type { RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../lib/errors';
import { checkPlaylist, createStreamSession } from './api';
import type { PlaylistState } from './api';
import type { Phase } from './model';
import { INITIAL_SESSION, WAIT_RETRY_MS, sessionReducer } from './model';
import { attachStream } from './stream-engine';
import type { StreamEngine } from './stream-engine';

export interface StreamSessionControls {
  phase: Phase;
  /** Live (true), the replay (false), or not known yet (null). */
  live: boolean | null;
  /** Open a session (again): the server ends the ticket's session on any other device. */
  listen: () => void;
  opening: boolean;
  /** The engine playing now, for the live edge and latency. */
  engine: RefObject<StreamEngine | null>;
}

export function useStreamSession(eventId: string, audioRef: RefObject<HTMLAudioElement | null>): StreamSessionControls {
  const { t } = useTranslation('player');
  const [state, dispatch] = useReducer(sessionReducer, INITIAL_SESSION);
  const engineRef = useRef<StreamEngine | null>(null);

  const open = useMutation({
    mutationFn: () => createStreamSession(eventId),
    onMutate: () => {
      dispatch({ type: 'open' });
    },
    onSuccess: (result) => {
      dispatch({ type: 'opened', playlistUrl: result.playlistUrl });
    },
    onError: (error) => {
      dispatch({ type: 'refused', message: errorText(error, t) });
    },
  });

  const session = state.playlistUrl;
  useEffect(() => {
    const audio = audioRef.current;
    if (!session || !audio) return;
    let cancelled = false;
    let generation = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stop = (): void => {
      generation += 1;
      engineRef.current?.destroy();
      engineRef.current = null;
    };
    const retryLater = (): void => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        void check();
      }, WAIT_RETRY_MS);
    };
    const start = async (): Promise<void> => {
      stop();
      const mine = generation;
      const current = (): boolean => !cancelled && mine === generation;
      dispatch({ type: 'playing' });
      const engine = await attachStream(audio, session, {
        onDenied: () => {
          if (!current()) return;
          stop();
          void check();
        },
        onMissing: () => {
          if (!current()) return;
          stop();
          dispatch({ type: 'waiting' });
          retryLater();
        },
        onPlaylist: (live) => {
          if (current()) dispatch({ type: 'playlist', live });
        },
        onFailed: () => {
          if (!current()) return;
          stop();
          dispatch({ type: 'failed' });
        },
      });
      if (!current()) {
        engine.destroy();
        return;
      }
      engineRef.current = engine;
      audio.play().catch(() => undefined);
    };
    const check = async (): Promise<void> => {
      let playlist: PlaylistState;
      try {
        playlist = await checkPlaylist(session);
      } catch {
        playlist = { kind: 'error', status: 0 };
      }
      if (cancelled) return;
      if (playlist.kind === 'ready') {
        await start();
      } else if (playlist.kind === 'denied') {
        stop();
        audio.pause();
        dispatch({ type: 'denied', denial: playlist.denial });
      } else {
        dispatch({ type: 'waiting' });
        retryLater();
      }
    };
    void check();
    return () => {
      cancelled = true;
      clearTimeout(timer);
      stop();
    };
  }, [session, audioRef]);

  return {
    phase: state.phase,
    live: state.live,
    listen: () => {
      open.mutate();
    },
    opening: open.isPending,
    engine: engineRef,
  };
}
