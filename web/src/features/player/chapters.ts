/**
 * Song titles in the playlist (docs/api-contract.md, "Song titles: markers"): one
 * `EXT-X-DATERANGE` per marker, `CLASS="org.encore.marker"`, the title and artist
 * percent-encoded in `X-TITLE`/`X-ARTIST`. hls.js parses them and places each on the media
 * timeline through the segments' program date time; this turns them into chapters.
 */

export const MARKER_CLASS = 'org.encore.marker';

/** A song of the show, at `start` seconds of media time. */
export interface Chapter {
  /** The marker's id (the date range's id without its `.<updated ms>` suffix). */
  id: string;
  title: string;
  artist: string | null;
  start: number;
}

/** What this module reads of an hls.js `DateRange`. */
export interface DateRangeLike {
  id: string;
  class: string;
  startTime: number;
  attr: Record<string, unknown>;
}

/** A chapter reached by a seek counts as playing although the media element may land a few
 * milliseconds before its start. */
const START_SLACK_S = 0.05;

/** `Say %22Hi%22` → `Say "Hi"`; a value that is not valid percent-encoding is shown as is. */
export function decodeTitle(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** `<marker id>.<updated ms>`: an edited marker is a new date range with the same marker id. */
function splitId(rangeId: string): { id: string; version: number } {
  const dot = rangeId.lastIndexOf('.');
  const version = dot < 0 ? NaN : Number(rangeId.slice(dot + 1));
  return Number.isFinite(version) ? { id: rangeId.slice(0, dot), version } : { id: rangeId, version: 0 };
}

/**
 * The show's chapters in timeline order. Other classes, ranges without a title or without a
 * place on the timeline are left out; where a player still holds an older version of an
 * edited marker, the newest wins.
 */
export function chaptersFrom(ranges: Iterable<DateRangeLike | undefined>): Chapter[] {
  const newest = new Map<string, { version: number; chapter: Chapter }>();
  for (const range of ranges) {
    if (!range || range.class !== MARKER_CLASS || !Number.isFinite(range.startTime)) continue;
    const title = decodeTitle(range.attr['X-TITLE']);
    if (title === null) continue;
    const { id, version } = splitId(range.id);
    const known = newest.get(id);
    if (known && known.version > version) continue;
    newest.set(id, { version, chapter: { id, title, artist: decodeTitle(range.attr['X-ARTIST']), start: Math.max(0, range.startTime) } });
  }
  return [...newest.values()].map((entry) => entry.chapter).sort((a, b) => a.start - b.start || a.id.localeCompare(b.id));
}

/** The chapter playing at media time `time`: the last one started at or before it. */
export function chapterAt(chapters: readonly Chapter[], time: number): Chapter | null {
  let playing: Chapter | null = null;
  for (const chapter of chapters) {
    if (chapter.start <= time + START_SLACK_S) playing = chapter;
    else break;
  }
  return playing;
}

/** Two lists show the same thing (the player re-reads them four times a second). */
export function sameChapters(a: readonly Chapter[], b: readonly Chapter[]): boolean {
  return a.length === b.length && a.every((c, i) => {
    const d = b[i];
    return d !== undefined && c.id === d.id && c.title === d.title && c.artist === d.artist && Math.abs(c.start - d.start) < 0.001;
  });
}
