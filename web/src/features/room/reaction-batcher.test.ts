import { createReactionBatcher } from './reaction-batcher';

describe('room: reaction batches', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the first click at once, then the clicks of each 250 ms together, per reaction', () => {
    const sent: string[] = [];
    const batcher = createReactionBatcher((kind, count) => sent.push(`${kind}×${String(count)}`), () => Date.now());
    batcher.click('applause', 1000);
    vi.advanceTimersByTime(0);
    expect(sent).toEqual(['applause×1']);
    for (let i = 0; i < 7; i++) batcher.click('applause', 1200);
    batcher.click('fire', 1250);
    vi.advanceTimersByTime(200);
    expect(sent).toEqual(['applause×1']);
    vi.advanceTimersByTime(50);
    expect(sent).toEqual(['applause×1', 'applause×7', 'fire×1']);
    vi.advanceTimersByTime(1000);
    expect(sent).toHaveLength(3);
  });

  it('sends a batch with the place of its last click', () => {
    const sent: (number | null)[] = [];
    const batcher = createReactionBatcher((_kind, _count, mediaTime) => sent.push(mediaTime), () => Date.now());
    batcher.click('fire', 500);
    vi.advanceTimersByTime(0);
    batcher.click('fire', 600);
    batcher.click('fire', 700);
    vi.advanceTimersByTime(250);
    expect(sent).toEqual([500, 700]);
  });

  it('never sends more than 20 at once: the rest follow in the next batch', () => {
    const sent: number[] = [];
    const batcher = createReactionBatcher((_kind, count) => sent.push(count), () => Date.now());
    for (let i = 0; i < 45; i++) batcher.click('heart', null);
    vi.advanceTimersByTime(0);
    expect(sent).toEqual([20]);
    vi.advanceTimersByTime(250);
    expect(sent).toEqual([20, 20]);
    vi.advanceTimersByTime(250);
    expect(sent).toEqual([20, 20, 5]);
  });

  it('drops what waits when stopped', () => {
    const sent: number[] = [];
    const batcher = createReactionBatcher((_kind, count) => sent.push(count), () => Date.now());
    batcher.click('heart', null);
    batcher.stop();
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([]);
  });
});
