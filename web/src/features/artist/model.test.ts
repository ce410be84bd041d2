import { PLACEHOLDER_COLOURS, artistPath, initials, paragraphs, placeholderColour } from './model';

describe('an artist', () => {
  it('has a public page at /artists/{project}', () => {
    expect(artistPath('p 1')).toBe('/artists/p%201');
  });

  it('splits its words into paragraphs at blank lines, keeping single line breaks inside one', () => {
    expect(paragraphs('First line\nsame paragraph\n\n  \nSecond\r\n\r\nThird  ')).toEqual(['First line\nsame paragraph', 'Second', 'Third']);
    expect(paragraphs('  \n\n ')).toEqual([]);
  });

  it('stands for its name with two letters when it has no picture, in any script', () => {
    expect(initials('harbour lights band')).toBe('HB');
    expect(initials('Björk')).toBe('BJ');
    expect(initials('گروه  نور')).toBe('گن');
    expect(initials('  ')).toBe('');
  });

  it('always gives the same name the same placeholder colour', () => {
    expect(placeholderColour('Harbour Lights')).toBe(placeholderColour('Harbour Lights'));
    expect(PLACEHOLDER_COLOURS).toContain(placeholderColour('Harbour Lights'));
    expect(new Set(['A', 'B', 'C', 'D', 'E', 'F'].map(placeholderColour)).size).toBeGreaterThan(1);
  });
});
