import type { DateRangeLike } from './chapters';
import { MARKER_CLASS, chapterAt, chaptersFrom, decodeTitle, sameChapters } from './chapters';

const range = (id: string, startTime: number, title?: string, artist?: string, cls = MARKER_CLASS): DateRangeLike => ({
  id,
  class: cls,
  startTime,
  attr: { ...(title === undefined ? {} : { 'X-TITLE': title }), ...(artist === undefined ? {} : { 'X-ARTIST': artist }) },
});

describe('song titles from the playlist', () => {
  it('decodes the percent-encoded title as the server writes it', () => {
    expect(decodeTitle('Say %22Hi%22')).toBe('Say "Hi"');
    expect(decodeTitle('100%25 %0A#EXT-X-ENDLIST')).toBe('100% \n#EXT-X-ENDLIST');
    expect(decodeTitle('Café – Ünïcode ☕')).toBe('Café – Ünïcode ☕');
    // Not valid percent-encoding: shown as it came rather than lost.
    expect(decodeTitle('50% off')).toBe('50% off');
    expect(decodeTitle('')).toBeNull();
    expect(decodeTitle(undefined)).toBeNull();
    expect(decodeTitle(42)).toBeNull();
  });

  it('keeps the encore markers with a title and a place, in timeline order', () => {
    const chapters = chaptersFrom([
      range('m2.1000', 30.5, 'Second', 'The Band'),
      range('ad.1', 5, 'An ad', undefined, 'com.example.ad'),
      range('m1.1000', 2, 'First'),
      range('m3.1000', NaN, 'No program date time'),
      range('m4.1000', 40),
    ]);
    expect(chapters).toEqual([
      { id: 'm1', title: 'First', artist: null, start: 2 },
      { id: 'm2', title: 'Second', artist: 'The Band', start: 30.5 },
    ]);
  });

  it('shows an edited marker once, as last changed, whatever order the ranges come in', () => {
    const chapters = chaptersFrom([range('m1.2000', 12, 'Fixed title'), range('m1.1000', 10, 'Typo titel')]);
    expect(chapters).toEqual([{ id: 'm1', title: 'Fixed title', artist: null, start: 12 }]);
    expect(chaptersFrom([range('m1.1000', 10, 'Typo titel'), range('m1.2000', 12, 'Fixed title')])).toEqual(chapters);
  });

  it('picks the chapter at the listener’s own position, not the last one', () => {
    const chapters = chaptersFrom([range('a.1', 0, 'Intro'), range('b.1', 10, 'Song'), range('c.1', 20, 'Encore')]);
    expect(chapterAt(chapters, 5)?.title).toBe('Intro');
    expect(chapterAt(chapters, 10)?.title).toBe('Song');
    // A seek to a chapter may land a hair before its start.
    expect(chapterAt(chapters, 19.98)?.title).toBe('Encore');
    expect(chapterAt(chapters, 19.5)?.title).toBe('Song');
    expect(chapterAt(chapters, 500)?.title).toBe('Encore');
    expect(chapterAt(chaptersFrom([range('b.1', 10, 'Song')]), 3)).toBeNull();
    expect(chapterAt([], 3)).toBeNull();
  });

  it('tells whether two lists show the same chapters', () => {
    const one = chaptersFrom([range('a.1', 0, 'Intro'), range('b.1', 10, 'Song')]);
    expect(sameChapters(one, chaptersFrom([range('a.1', 0, 'Intro'), range('b.1', 10, 'Song')]))).toBe(true);
    expect(sameChapters(one, chaptersFrom([range('a.1', 0, 'Intro'), range('b.2', 10, 'Song!')]))).toBe(false);
    expect(sameChapters(one, chaptersFrom([range('a.1', 0, 'Intro')]))).toBe(false);
  });
});
