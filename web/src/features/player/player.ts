/**
 * The app's one player (`createPlayerStore` with the real API, hls.js and a hidden <audio>
 * in the document), the operating system's view of it, and the hooks components read it by.
 */
import i18n from 'i18next';
import { useSyncExternalStore } from 'react';
import { fetchMe } from '../auth/api';
import { getAuthStatus, onSessionChange } from '../auth/session';
import { saveMyStreamQuality } from '../users/api';
import { errorText } from '../../lib/errors';
import { checkPlaylist, createStreamSession, getListeningStatus } from './api';
import { bindMediaSession, bindTabTitle } from './media-session';
import type { PlayerSnapshot, PlayerStore } from './player-store';
import { parseQuality } from './model';
import { createPlayerStore } from './player-store';
import { attachStream } from './stream-engine';

function createAudio(): HTMLAudioElement {
  const audio = document.createElement('audio');
  audio.preload = 'none';
  audio.hidden = true;
  audio.dataset.testid = 'player-audio';
  document.body.append(audio);
  return audio;
}

let instance: PlayerStore | null = null;

/** The player, created on first use with its bindings (Media Session, tab title, sign-out). */
export function appPlayer(): PlayerStore {
  if (instance) return instance;
  const store = createPlayerStore({
    createAudio,
    openSession: createStreamSession,
    checkPlaylist,
    attach: attachStream,
    listening: getListeningStatus,
    loadQuality: async () => {
      if (!getAuthStatus().hasToken) return null;
      const me = await fetchMe();
      return me.streamQuality ? parseQuality(me.streamQuality) : null;
    },
    saveQuality: (quality) => (getAuthStatus().hasToken ? saveMyStreamQuality(quality) : Promise.resolve(null)),
    refusalText: (error) => errorText(error, i18n.getFixedT(null, 'player')),
  });
  bindMediaSession(store);
  bindTabTitle(store);
  // Signing out silences the player: the next person at this computer hears nothing. Not
  // from inside the session's own notification: re-rendering there re-enters it.
  onSessionChange(() => {
    if (!getAuthStatus().hasToken && store.getSnapshot().concert !== null) {
      queueMicrotask(() => {
        if (!getAuthStatus().hasToken) store.stop();
      });
    }
  });
  instance = store;
  return store;
}

/** The player's state, re-rendering on every change. */
export function usePlayer(): PlayerSnapshot {
  const store = appPlayer();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/** One part of the player's state, re-rendering only when it changes. */
export function usePlayerSelect<T>(select: (snapshot: PlayerSnapshot) => T): T {
  const store = appPlayer();
  const get = (): T => select(store.getSnapshot());
  return useSyncExternalStore(store.subscribe, get, get);
}
