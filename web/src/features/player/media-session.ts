/**
 * What the operating system shows of the player: the lock screen's and the media keys'
 * Media Session (title, artist, artwork; play, pause, seek where the show allows it), and
 * the tab's title while something plays.
 */
import { chapterAt } from './chapters';
import type { PlayerSnapshot, PlayerStore } from './player-store';

/** Seconds a hardware "skip" moves when the OS does not say. */
const DEFAULT_SKIP_S = 10;

/** The tab's title while a concert plays: "▶ Title · Artist". */
export function playingTitle(snapshot: Pick<PlayerSnapshot, 'concert' | 'phase' | 'paused'>): string | null {
  const { concert } = snapshot;
  if (!concert || snapshot.phase.kind !== 'playing' || snapshot.paused) return null;
  return `▶ ${concert.title} · ${concert.artistName}`;
}

/** The artwork in the sizes the OS picks from (the server's picture and its thumbnail). */
function artwork(snapshot: PlayerSnapshot): MediaImage[] {
  const concert = snapshot.concert;
  if (!concert) return [];
  const origin = typeof window === 'undefined' ? '' : window.location.origin;
  const images: MediaImage[] = [];
  if (concert.thumbnail) images.push({ src: new URL(concert.thumbnail, origin).href, sizes: '320x320' });
  if (concert.image) images.push({ src: new URL(concert.image, origin).href, sizes: '1280x720' });
  return images;
}

/** What the lock screen shows: the song playing where the show has titles (its artist,
 * or the concert's; the concert as the album), else the concert. */
export function lockScreenText(snapshot: Pick<PlayerSnapshot, 'concert' | 'chapters' | 'currentTime'>): { title: string; artist: string; album: string } | null {
  const { concert } = snapshot;
  if (!concert) return null;
  const song = chapterAt(snapshot.chapters, snapshot.currentTime);
  if (!song) return { title: concert.title, artist: concert.artistName, album: 'Encore' };
  return { title: song.title, artist: song.artist ?? concert.artistName, album: concert.title };
}

/**
 * Keeps `navigator.mediaSession` in step with the player (the song as it changes);
 * returns the unsubscribe. Does nothing where the browser has no Media Session.
 */
export function bindMediaSession(store: PlayerStore, session: MediaSession | undefined = navigator.mediaSession as MediaSession | undefined): () => void {
  if (!session) return () => undefined;
  let concertShown: PlayerSnapshot['concert'] = null;
  let textShown: string | null = null;
  let seekable: boolean | null = null;
  const handle = (action: MediaSessionAction, handler: MediaSessionActionHandler | null): void => {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // An action this browser does not know.
    }
  };
  const update = (): void => {
    const snapshot = store.getSnapshot();
    const text = lockScreenText(snapshot);
    const key = text ? `${text.title}\u0000${text.artist}\u0000${text.album}` : null;
    if (snapshot.concert !== concertShown || key !== textShown) {
      textShown = key;
      session.metadata = text ? new MediaMetadata({ ...text, artwork: artwork(snapshot) }) : null;
    }
    if (snapshot.concert !== concertShown) {
      concertShown = snapshot.concert;
      const controls = snapshot.concert !== null;
      handle('play', controls ? () => { store.resume(); } : null);
      handle('pause', controls ? () => { store.pause(); } : null);
      handle('stop', controls ? () => { store.stop(); } : null);
    }
    session.playbackState = snapshot.concert === null ? 'none' : snapshot.paused ? 'paused' : 'playing';
    // Seeking is offered once the show has something recorded to move in (live or replay).
    const canSeek = snapshot.phase.kind === 'playing' && snapshot.range !== null && snapshot.range.end > snapshot.range.start;
    if (canSeek !== seekable) {
      seekable = canSeek;
      handle('seekto', canSeek ? (details) => { if (details.seekTime !== undefined) store.seek(details.seekTime); } : null);
      handle('seekbackward', canSeek ? (details) => { store.skip(-(details.seekOffset ?? DEFAULT_SKIP_S)); } : null);
      handle('seekforward', canSeek ? (details) => { store.skip(details.seekOffset ?? DEFAULT_SKIP_S); } : null);
    }
  };
  update();
  return store.subscribe(update);
}

/**
 * Shows what plays in the tab's title, over whatever title the page sets (pages set theirs
 * on navigation: it is kept and comes back when the music stops); returns the unsubscribe.
 */
export function bindTabTitle(store: PlayerStore, doc: Document = document): () => void {
  let pageTitle = doc.title;
  let shown: string | null = null;
  const apply = (): void => {
    const wanted = playingTitle(store.getSnapshot());
    const next = wanted ?? pageTitle;
    shown = wanted;
    if (doc.title !== next) doc.title = next;
  };
  // A page that sets its title while music plays: remember it, and put ours back.
  const observer = new MutationObserver(() => {
    if (doc.title === (shown ?? pageTitle)) return;
    pageTitle = doc.title;
    apply();
  });
  observer.observe(doc.head, { childList: true, subtree: true, characterData: true });
  apply();
  const unsubscribe = store.subscribe(apply);
  return () => {
    observer.disconnect();
    unsubscribe();
  };
}
