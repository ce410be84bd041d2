import { ApiError, ClientError } from './errors';
import { probe, request, requestEnvelope, setAuthErrorHandlers, setTokenProvider } from './http';

function reply(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('HTTP client', () => {
  const onUnauthorized = vi.fn();
  const onForbidden = vi.fn();
  beforeEach(() => {
    onUnauthorized.mockReset();
    onForbidden.mockReset();
    setAuthErrorHandlers({ onUnauthorized, onForbidden });
    setTokenProvider(() => Promise.resolve('token-123'));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('returns the payload and sends bearer, x-access-token and the app language', async () => {
    document.documentElement.lang = 'fa-IR';
    const fetchMock = vi.fn().mockResolvedValue(reply(200, { success: true, payload: { ok: 1 }, error: null }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('/api/v1/x', { query: { page: 1, search: '' } })).resolves.toEqual({ ok: 1 });
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1/x?page=1');
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer token-123');
    expect(headers['x-access-token']).toBe('token-123');
    expect(headers['Accept-Language']).toBe('fa-IR');
  });

  it('raises the server error text when success is false', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(reply(200, { success: false, payload: null, error: 'Nope.' })));
    await expect(request('/api/v1/x')).rejects.toThrow('Nope.');
  });

  it('logs out on 401 and goes to 403 on 403 for signed-in calls', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(reply(401, { success: false, payload: null, error: 'expired' })));
    await expect(request('/api/v1/x')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(reply(403, { success: false, payload: null, error: 'no' })));
    await expect(request('/api/v1/x')).rejects.toThrow('no');
    expect(onForbidden).toHaveBeenCalledTimes(1);
  });

  it('keeps the page on a 403 that is an answer (a stream session refused) and raises its reason', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(reply(403, { success: false, payload: null, error: 'Refunded.' })));
    await expect(request('/api/v1/stream/e/session', { method: 'POST', forbiddenIsAnswer: true })).rejects.toThrow('Refunded.');
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it('probes a playlist without a token and returns its status and headers', async () => {
    const fetchMock = vi.fn().mockResolvedValue(new Response(null, { status: 403, headers: { 'Encore-Denied': 'superseded' } }));
    vi.stubGlobal('fetch', fetchMock);
    const result = await probe('/stream/t/index.m3u8');
    expect(result.status).toBe(403);
    expect(result.headers.get('encore-denied')).toBe('superseded');
    expect((fetchMock.mock.calls[0] as [string, RequestInit])[1].headers).not.toHaveProperty('Authorization');
    expect(onForbidden).not.toHaveBeenCalled();
  });

  it('does not log out when an unauthenticated call (sign-in) answers 401', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(reply(401, { success: false, payload: null, error: 'Invalid e-mail or password' })));
    await expect(request('/api/v1/oauth2/authorize', { method: 'POST', auth: false, body: {} })).rejects.toThrow(
      'Invalid e-mail or password',
    );
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('returns the whole envelope with the echoed state', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(reply(200, { success: true, payload: 1, error: null, state: 's' })));
    await expect(requestEnvelope('/x', { auth: false })).resolves.toMatchObject({ state: 's', payload: 1 });
  });

  it('times out unauthenticated calls after 5000 ms and authenticated ones after 15000 ms', async () => {
    vi.useFakeTimers();
    const hang = vi.fn((_url: string, init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => {
          reject(new DOMException('aborted', 'AbortError'));
        });
      }),
    );
    vi.stubGlobal('fetch', hang);
    const unauthenticated = request('/x', { auth: false });
    const caught = unauthenticated.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(4999);
    expect(hang.mock.calls[0]?.[1].signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await caught).toBeInstanceOf(ClientError);

    const authenticated = request('/y').catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(14999);
    expect(hang.mock.calls[1]?.[1].signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await authenticated).toBeInstanceOf(ClientError);
  });
});
