// hls.js ships its light build (no subtitles, alternate audio or DRM: an audio-only LL-HLS
// player needs none of them) without its own type declarations; it has the full API's.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
