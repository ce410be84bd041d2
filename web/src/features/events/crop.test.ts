import { cropFileName, cropOutputSize, cropOutputType } from './crop';

describe('the concert picture crop', () => {
  it('keeps the cropped size, scaled down to 1920 pixels wide and never up', () => {
    expect(cropOutputSize({ x: 10, y: 20, width: 800, height: 450 })).toEqual({ width: 800, height: 450 });
    expect(cropOutputSize({ x: 0, y: 0, width: 3840, height: 2160 })).toEqual({ width: 1920, height: 1080 });
    expect(cropOutputSize({ x: 0, y: 0, width: 4000, height: 2250 }, 1000)).toEqual({ width: 1000, height: 563 });
  });

  it('keeps PNG and WebP, and makes JPEG of anything else', () => {
    expect(cropOutputType('image/png')).toBe('image/png');
    expect(cropOutputType('image/webp')).toBe('image/webp');
    expect(cropOutputType('image/jpeg')).toBe('image/jpeg');
    expect(cropOutputType('image/heic')).toBe('image/jpeg');
  });

  it('names the file after the source, with the output type', () => {
    expect(cropFileName('poster.final.PNG', 'image/png')).toBe('poster.final.png');
    expect(cropFileName('photo.jpeg', 'image/jpeg')).toBe('photo.jpg');
    expect(cropFileName('noextension', 'image/webp')).toBe('noextension.webp');
  });
});
