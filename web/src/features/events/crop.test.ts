import { centredArea, cropFileName, cropOutputSize, cropOutputType } from './crop';

describe('the concert picture crop', () => {
  it('frames the middle of the picture at 16:9 when nobody moved it', () => {
    // Taller than 16:9: full width, the middle band.
    expect(centredArea(640, 480)).toEqual({ x: 0, y: 60, width: 640, height: 360 });
    // Wider than 16:9: full height, the middle columns.
    expect(centredArea(2000, 900)).toEqual({ x: 200, y: 0, width: 1600, height: 900 });
    // Exactly 16:9: all of it.
    expect(centredArea(1920, 1080)).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
  });

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
