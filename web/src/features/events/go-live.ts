/**
 * Browser "go live" (docs/api-contract.md, "Live audio"): the microphone (untouched by the
 * browser's call processing) through a MediaRecorder, Opus or, in lossless, PCM, chunk by chunk
 * over a WebSocket to the server, which encodes the show's renditions from it as from an
 * encoder's.
 */

export type GoLiveState =
  | { kind: 'idle' }
  | { kind: 'starting' }
  /** `withoutLossless`: lossless was sent, but the show under way began without it and
   * carries on in its AAC renditions (a show takes a lossless lane only from its start). */
  | { kind: 'live'; withoutLossless: boolean }
  | { kind: 'ended' }
  | { kind: 'stopped' }
  | { kind: 'error'; reason: 'server'; status: number; message: string }
  | { kind: 'error'; reason: 'mic' | 'unsupported' | 'closed'; message: string };

export interface GoLiveOptions {
  websocketUrl: string;
  /** The live panel's go-live ticket (the stream key is stored hashed, never shown again). */
  ticket: string;
  onState: (state: GoLiveState) => void;
  /** Input level, 0…1, about ten times a second. */
  onLevel?: (level: number) => void;
  /** Send the microphone uncompressed (`LOSSLESS_MIME_TYPE`) where the browser can. */
  lossless?: boolean;
}

export interface GoLiveSession {
  stop: () => void;
}

/** MediaRecorder formats the server decodes, best first. */
export const GO_LIVE_MIME_TYPES = ['audio/webm;codecs=opus', 'audio/ogg;codecs=opus', 'audio/mp4'] as const;

/** The microphone as 32-bit float PCM in WebM (Chromium's MediaRecorder): nothing lost on the
 * way to the server, about 3 Mbit/s in stereo. */
export const LOSSLESS_MIME_TYPE = 'audio/webm;codecs=pcm';

/** Opus at a rate where music is transparent (MediaRecorder's default is tuned for speech). */
export const OPUS_BITS_PER_SECOND = 192_000;

/** The microphone as a musician wants it: browsers tune it for calls (echo cancelling, noise
 * suppression, automatic gain), which pumps and thins music; stereo at 48 kHz where it has it. */
export const MUSIC_MICROPHONE: MediaTrackConstraints = {
  echoCancellation: false,
  noiseSuppression: false,
  autoGainControl: false,
  channelCount: { ideal: 2 },
  sampleRate: { ideal: 48_000 },
};

/** One chunk per 250 ms, as the contract says. */
export const CHUNK_MS = 250;

const LEVEL_INTERVAL_MS = 100;

export function pickMimeType(isSupported: (type: string) => boolean, lossless = false): string | null {
  if (lossless && isSupported(LOSSLESS_MIME_TYPE)) return LOSSLESS_MIME_TYPE;
  return GO_LIVE_MIME_TYPES.find((type) => isSupported(type)) ?? null;
}

/** Whether this browser can go live losslessly. */
export function canGoLiveLossless(): boolean {
  return typeof MediaRecorder !== 'undefined' && MediaRecorder.isTypeSupported(LOSSLESS_MIME_TYPE);
}

type ServerMessage = { type: 'live'; takesLossless: boolean } | { type: 'ended' } | { type: 'error'; status: number; message: string };

export function parseServerMessage(text: string): ServerMessage | null {
  try {
    const value = JSON.parse(text) as { type?: unknown; status?: unknown; message?: unknown; takesLossless?: unknown };
    // A server from before `takesLossless` took lossless whenever it could.
    if (value.type === 'live') return { type: 'live', takesLossless: value.takesLossless !== false };
    if (value.type === 'ended') return { type: 'ended' };
    if (value.type === 'error') {
      return { type: 'error', status: typeof value.status === 'number' ? value.status : 0, message: typeof value.message === 'string' ? value.message : '' };
    }
  } catch {
    // not JSON: ignored
  }
  return null;
}

/** Level meter: RMS of the microphone signal, scaled so speech shows well. */
function meter(stream: MediaStream, onLevel: (level: number) => void): () => void {
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 1024;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const sample of samples) sum += sample * sample;
    onLevel(Math.min(1, Math.sqrt(sum / samples.length) * 4));
  }, LEVEL_INTERVAL_MS);
  return () => {
    clearInterval(timer);
    void context.close();
  };
}

export async function goLive({ websocketUrl, ticket, onState, onLevel, lossless = false }: GoLiveOptions): Promise<GoLiveSession> {
  const idle: GoLiveSession = { stop: () => undefined };
  if (typeof MediaRecorder === 'undefined' || typeof WebSocket === 'undefined' || !('mediaDevices' in navigator)) {
    onState({ kind: 'error', reason: 'unsupported', message: '' });
    return idle;
  }
  onState({ kind: 'starting' });
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: MUSIC_MICROPHONE });
  } catch (error) {
    onState({ kind: 'error', reason: 'mic', message: error instanceof Error ? error.message : String(error) });
    return idle;
  }
  const mimeType = pickMimeType((type) => MediaRecorder.isTypeSupported(type), lossless);
  const recorder = new MediaRecorder(stream, {
    ...(mimeType ? { mimeType } : {}),
    ...(mimeType === LOSSLESS_MIME_TYPE ? {} : { audioBitsPerSecond: OPUS_BITS_PER_SECOND }),
  });
  const stopMeter = onLevel ? meter(stream, onLevel) : () => undefined;
  const socket = new WebSocket(websocketUrl);
  let finished = false;

  const release = (): void => {
    stopMeter();
    onLevel?.(0);
    for (const track of stream.getTracks()) track.stop();
  };
  const finish = (state: GoLiveState): void => {
    if (finished) return;
    finished = true;
    if (recorder.state !== 'inactive') {
      // The last chunk goes out before the socket closes.
      recorder.addEventListener('stop', () => {
        socket.close(1000);
      });
      recorder.stop();
    } else if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) {
      socket.close(1000);
    }
    release();
    onState(state);
  };

  recorder.addEventListener('dataavailable', (event) => {
    if (event.data.size > 0 && socket.readyState === WebSocket.OPEN) socket.send(event.data);
  });
  socket.addEventListener('open', () => {
    socket.send(JSON.stringify({ ticket, mimeType: recorder.mimeType || mimeType || '' }));
  });
  socket.addEventListener('message', (event) => {
    if (typeof event.data !== 'string') return;
    const message = parseServerMessage(event.data);
    if (!message || finished) return;
    if (message.type === 'live') {
      if (recorder.state === 'inactive') recorder.start(CHUNK_MS);
      onState({ kind: 'live', withoutLossless: mimeType === LOSSLESS_MIME_TYPE && !message.takesLossless });
    } else if (message.type === 'ended') {
      finish({ kind: 'ended' });
    } else {
      finish({ kind: 'error', reason: 'server', status: message.status, message: message.message });
    }
  });
  socket.addEventListener('close', () => {
    finish({ kind: 'error', reason: 'closed', message: '' });
  });
  return {
    stop: () => {
      finish({ kind: 'stopped' });
    },
  };
}
