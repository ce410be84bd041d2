import { shareOrCopy } from './share';

const DATA = { title: 'Low Tide', url: 'https://encore.example/concerts/7' };

describe('shareOrCopy', () => {
  it('uses the system share sheet where there is one', async () => {
    const share = vi.fn(() => Promise.resolve());
    const writeText = vi.fn(() => Promise.resolve());
    expect(await shareOrCopy(DATA, { share, clipboard: { writeText } })).toBe('shared');
    expect(share).toHaveBeenCalledWith(DATA);
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the link where there is none', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    expect(await shareOrCopy(DATA, { clipboard: { writeText } })).toBe('copied');
    expect(writeText).toHaveBeenCalledWith(DATA.url);
  });

  it('says nothing when the reader closes the sheet', async () => {
    const share = vi.fn(() => Promise.reject(new DOMException('closed', 'AbortError')));
    const writeText = vi.fn(() => Promise.resolve());
    expect(await shareOrCopy(DATA, { share, clipboard: { writeText } })).toBe('cancelled');
    expect(writeText).not.toHaveBeenCalled();
  });

  it('copies the link when the sheet cannot share it', async () => {
    const share = vi.fn(() => Promise.reject(new DOMException('no', 'NotAllowedError')));
    const writeText = vi.fn(() => Promise.resolve());
    expect(await shareOrCopy(DATA, { share, canShare: () => true, clipboard: { writeText } })).toBe('copied');
    expect(await shareOrCopy(DATA, { share, canShare: () => false, clipboard: { writeText } })).toBe('copied');
    expect(share).toHaveBeenCalledTimes(1);
  });

  it('fails when neither works', async () => {
    expect(await shareOrCopy(DATA, {})).toBe('failed');
    expect(await shareOrCopy(DATA, { clipboard: { writeText: () => Promise.reject(new Error('denied')) } })).toBe('failed');
  });
});
