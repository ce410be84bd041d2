import { LOSSLESS_MIME_TYPE, parseServerMessage, pickMimeType } from './go-live';

describe('go live', () => {
  it('prefers WebM Opus, then Ogg Opus, then MP4', () => {
    expect(pickMimeType(() => true)).toBe('audio/webm;codecs=opus');
    expect(pickMimeType((type) => type.startsWith('audio/ogg'))).toBe('audio/ogg;codecs=opus');
    expect(pickMimeType((type) => type === 'audio/mp4')).toBe('audio/mp4');
    expect(pickMimeType(() => false)).toBeNull();
  });

  it('sends PCM in lossless where the browser records it, else what it has', () => {
    expect(pickMimeType(() => true, true)).toBe(LOSSLESS_MIME_TYPE);
    expect(pickMimeType(() => true, false)).toBe('audio/webm;codecs=opus');
    expect(pickMimeType((type) => type !== LOSSLESS_MIME_TYPE, true)).toBe('audio/webm;codecs=opus');
  });

  it('reads the server messages of the contract', () => {
    expect(parseServerMessage('{"type":"live","takesLossless":true}')).toEqual({ type: 'live', takesLossless: true });
    expect(parseServerMessage('{"type":"live","takesLossless":false}')).toEqual({ type: 'live', takesLossless: false });
    expect(parseServerMessage('{"type":"live"}')).toEqual({ type: 'live', takesLossless: true });
    expect(parseServerMessage('{"type":"ended"}')).toEqual({ type: 'ended' });
    expect(parseServerMessage('{"type":"error","status":409,"message":"Someone else is live."}')).toEqual({
      type: 'error',
      status: 409,
      message: 'Someone else is live.',
    });
    expect(parseServerMessage('nope')).toBeNull();
    expect(parseServerMessage('{"type":"other"}')).toBeNull();
  });
});
