import { parsePresets } from './tip-settings-panel';

describe('tip presets as typed', () => {
  it('reads amounts separated by a comma and a space, spaces, semicolons or the Persian comma', () => {
    expect(parsePresets('2, 5, 10, 20', 2)).toEqual([200, 500, 1000, 2000]);
    expect(parsePresets('2,50; 5', 2)).toEqual([250, 500]);
    expect(parsePresets('۳، ۸٫۵۰', 2)).toEqual([300, 850]);
    expect(parsePresets('300 700', 0)).toEqual([300, 700]);
  });

  it('is null when one is not a number', () => {
    expect(parsePresets('2, five', 2)).toBeNull();
  });
});
