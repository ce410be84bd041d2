// The live room's end-to-end set-up, shared by the room's test files (room*.test.mjs): a
// concert on air (the real `encore push` sends a sine), fans with paid tickets, and the
// stage where they listen and read the room.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { apiSession, buyTicket, cast, createConcert, e2eSuite, sineFile, startPush, waitUntil } from './harness.mjs';

export const PLAYBACK_ARGS = ['--autoplay-policy=no-user-gesture-required'];
/** The playlist answers 404 until the first segment, and 403 once another device took the
 * ticket over: the browser logs both requests, which the player expects. */
export const STREAM_ANSWERS = /status of 40[34] .*\(http:\/\/[^)]*\/stream\//;

/** How the room names a message's author (and a reporter): the first name and the initial of
 * the surname, "Ann B.". */
export const author = (account) => `${account.firstName} ${account.lastName[0]}.`;

/**
 * Registers (with `before` and `after`) a live show for a room test file of `suite`
 * (harness.mjs's `e2eSuite`): `title` published by `admin`, `artist` (when given) a member
 * of its project (the room's "Artist", a moderator), each of `fans` with a paid ticket, and
 * `encore push` sending a sine of `frequency` Hz. Answers the show, filled in once `before`
 * ran (`ready` resolves then): `concert` ({ id, key }), `admin` (its API session), `session(account)` (a fan's),
 * `push` (the encoder process) and `audioFile`.
 */
export function liveRoomShow(suite, { title, admin, fans, artist = null, frequency = 330 }) {
  const sessions = new Map();
  let sine;
  let ready;
  let failed;
  const show = {
    /** Resolves once the show is on air: a file's own `before` awaits it (Node 20 runs the
     * top-level `before`s side by side). */
    ready: new Promise((resolve, reject) => {
      ready = resolve;
      failed = reject;
    }),
    concert: null,
    admin: null,
    push: null,
    audioFile: null,
    /** The API session of one of the show's fans. */
    session(account) {
      const session = sessions.get(account.email);
      assert.ok(session, `${account.email} is one of the show's fans`);
      return session;
    },
    /** `encore push` again (after a test stopped it). */
    restartPush() {
      show.push = startPush(suite.server.url, show.audioFile, show.concert);
      return show.push;
    },
  };
  show.ready.catch(() => undefined);
  before(async () => {
    try {
      await setUp();
      ready(show);
    } catch (error) {
      failed(error);
      throw error;
    }
  });
  async function setUp() {
    await suite.ready;
    show.admin = await apiSession(suite.server.url, admin.email, admin.password);
    sine = sineFile(frequency);
    show.audioFile = sine.path;
    show.concert = await createConcert(show.admin, title);
    if (artist) {
      const event = await show.admin('GET', `/api/v1/events/${show.concert.id}`);
      const member = await show.admin('POST', `/api/v1/projects/${event.json.payload.projectId}/members`, { login: artist.email });
      assert.equal(member.status, 200, JSON.stringify(member.json));
    }
    for (const account of fans) {
      const fan = await apiSession(suite.server.url, account.email, account.password);
      sessions.set(account.email, fan);
      await buyTicket(fan, show.concert, `${account.firstName} ${account.lastName}`);
    }
    show.restartPush();
  }
  after(async () => {
    show.push?.kill('SIGKILL');
    sine?.remove();
  });
  return show;
}

/**
 * The room's full house, as room.test and tips.test play it: staff (`admin`), the project's
 * `artist` (a moderator), two fans (`fanA`, `fanB`) and a Persian reader (`persian`), each fan
 * with a ticket to a live show called `title` that sounds at `frequency` Hz. Answers the
 * file's `accounts`, `suite` (an `e2eSuite`), `show` (`liveRoomShow`) and `onStage(account,
 * options)`, which opens that show's stage for one of them.
 */
export function fullRoom({ title, frequency }) {
  const accounts = cast({ admin: 'ada', artist: 'aria', fanA: 'ann', fanB: 'ben', persian: 'sara' });
  const suite = e2eSuite(accounts);
  const show = liveRoomShow(suite, {
    title,
    admin: accounts.admin,
    artist: accounts.artist,
    fans: [accounts.fanA, accounts.fanB, accounts.persian],
    frequency,
  });
  return { accounts, suite, show, onStage: (account, options) => onStage(suite, show, account, options) };
}

export const room = (page) => page.getByTestId('room');
export const messages = (page, text) => room(page).getByTestId('room-message').filter({ hasText: text });
export const audioTime = (page) => page.getByTestId('player-audio').evaluate((audio) => audio.currentTime);

/** Waits until the room is loaded and follows the socket. */
export async function roomLive(page) {
  await room(page).and(page.locator('[data-status="ready"][data-feed="socket"]')).waitFor({ timeout: 15_000 });
}

/** Writes and sends `text`; the input empties once the server took it. */
export async function post(page, text) {
  const input = room(page).getByTestId('room-input');
  await input.fill(text);
  await room(page).getByTestId('room-send').click();
  await waitUntil(async () => (await input.inputValue()) === '', { timeout: 10_000, message: `"${text}" sent` });
}

/**
 * Signs `account` in (reading `language`, when given) in a new browser of `suite`, opens the
 * show's stage and starts listening; answers the browser once the player's clock moves and,
 * unless `follow` is off (a phone's room is folded), the room follows the socket.
 * `watchSocket(page)` runs before anything loads. `reuse`: the account's later browsers in
 * the file start signed in with what its first sign-in left (harness.mjs's `browserAs`).
 */
export async function onStage(suite, show, account, { language, width = 1280, height = 900, follow = true, watchSocket, reuse = false } = {}) {
  const b = await suite.browserAs(account, {
    width,
    height,
    args: PLAYBACK_ARGS,
    reuse,
    async prepare(page) {
      if (language) {
        await page.addInitScript((code) => {
          localStorage.setItem('language', code);
        }, language);
      }
      watchSocket?.(page);
    },
  });
  const { page } = b;
  await page.goto(`${suite.server.url}/stage/${show.concert.id}`);
  const stage = page.getByTestId('stage');
  await stage.getByTestId('player-listen').click();
  await stage.and(page.locator('[data-phase="playing"]')).waitFor({ timeout: 30_000 });
  const from = await audioTime(page);
  await waitUntil(async () => (await audioTime(page)) > from + 1, { timeout: 20_000, message: `${account.firstName}'s player to play` });
  if (follow) await roomLive(page);
  return b;
}

/** Opens the artist's live panel of `title` from the manage-events page; answers it once its
 * room is loaded, on the socket, with the moderators' tools. */
export async function openLivePanel(suite, page, title) {
  await page.goto(`${suite.server.url}/manage-events`);
  await page.getByTestId('manage-row').filter({ hasText: title }).getByTestId('manage-sales').click();
  const panel = page.getByTestId('live-panel');
  await panel.getByTestId('room').and(page.locator('[data-status="ready"][data-feed="socket"][data-moderator="true"]')).waitFor({ timeout: 15_000 });
  return panel;
}
