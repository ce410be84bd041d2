// End-to-end: the chat is in step with the music (docs/api-contract.md, "The live room",
// Media time). Two fans listen live to a show the real `encore push` sends; fan B rewinds
// 8 s; fan A writes: A sees it at once, B only once B's player reaches the message's
// `mediaTime` (it reached B's socket long before). Then the show ends and the replay, played
// from the start, brings the message back when it reaches that moment; a seek past it shows
// it at once, a seek back before it hides it again.
//
// The pages are watched from inside (every 50 ms: the <audio> element's clock and whether the
// message is in the room), so the delays measured are the app's, not the test's round trips.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { cast, e2eSuite, waitUntil } from './harness.mjs';
import { audioTime, liveRoomShow, messages, onStage as openStage, room, STREAM_ANSWERS } from './room-helpers.mjs';

const ACCOUNTS = cast({ admin: 'ada', fanA: 'ann', fanB: 'ben' });

const suite = e2eSuite(ACCOUNTS);
const { finish } = suite;

const TITLE = 'In Step with the Chat';
/** Fan B rewinds this much (s). */
const REWIND_S = 8;
/** After the seek B may stall while its player loads what it rewound to (seconds on a slow
 * host), and is then further behind: at most this much more. */
const STALL_S = 10;
/** The room re-reads the player every 250 ms (player-store's TICK_MS): live, a message shows
 * within this much of the player reaching its media time. */
const LIVE_SLACK_MS = 1000;
/** In the replay, within this much. */
const REPLAY_SLACK_MS = 500;
/** A seek shows (or hides) the message within this much. */
const SEEK_SLACK_MS = 500;

const show = liveRoomShow(suite, { title: TITLE, admin: ACCOUNTS.admin, fans: [ACCOUNTS.fanA, ACCOUNTS.fanB], frequency: 392 });
/** The message fan A posts live: its text, and the server's answer (id, mediaTime). */
const posted = { text: 'Right on the downbeat: this chord!', message: null };

const liveStatus = async () => (await show.admin('GET', `/api/v1/events/${show.concert.id}/live`)).json.payload;
/** Signs `account` in, opens the stage and starts listening; answers once the player's clock
 * moves and the room follows the socket. */
const onStage = (account, options) => openStage(suite, show, account, options);

/** Starts sampling, inside the page every 50 ms, the player's clock (ms) and whether a message
 * holding `text` is in the room. */
function startWatch(page, text) {
  return page.evaluate((wanted) => {
    const audio = document.querySelector('[data-testid="player-audio"]');
    const samples = [];
    const sample = () => {
      const shown = [...document.querySelectorAll('[data-testid="room"] [data-testid="room-message"]')].some((element) => element.textContent.includes(wanted));
      samples.push({ at: Date.now(), ms: audio.currentTime * 1000, paused: audio.paused, shown });
    };
    sample();
    window.roomWatch = { samples, timer: setInterval(sample, 50) };
  }, text);
}

/** The samples so far (and stops sampling when `stop`). */
function readWatch(page, { stop = false } = {}) {
  return page.evaluate((end) => {
    if (end) clearInterval(window.roomWatch.timer);
    return window.roomWatch.samples;
  }, stop);
}

/** From the samples: when the player first reached `mediaTime` and when the message first
 * showed (wall clock ms), and any sample where it showed before its time. */
function timing(samples, mediaTime) {
  const reached = samples.find((s) => s.ms >= mediaTime);
  const shown = samples.find((s) => s.shown);
  const early = samples.filter((s) => s.shown && s.ms < mediaTime - 1);
  return { reached, shown, early, delay: reached && shown ? shown.at - reached.at : null };
}

/** Sets the player's position (s) in the page and answers how long (ms) until the message
 * holding `text` is shown (`shown` true) or gone (false), polled every 10 ms; null past 5 s. */
function seekAndTime(page, seconds, text, shown) {
  return page.evaluate(
    ([to, wanted, want]) =>
      new Promise((resolve) => {
        const audio = document.querySelector('[data-testid="player-audio"]');
        const isShown = () => [...document.querySelectorAll('[data-testid="room"] [data-testid="room-message"]')].some((element) => element.textContent.includes(wanted));
        const start = performance.now();
        audio.currentTime = to;
        const timer = setInterval(() => {
          const elapsed = performance.now() - start;
          if (isShown() === want) {
            clearInterval(timer);
            resolve({ elapsed: Math.round(elapsed), at: audio.currentTime });
          } else if (elapsed > 5000) {
            clearInterval(timer);
            resolve({ elapsed: null, at: audio.currentTime });
          }
        }, 10);
      }),
    [seconds, text, shown],
  );
}

describe('The chat is in step with the music', () => {
  test('live: fan B, seconds behind, sees fan A\'s message only when B\'s player reaches its media time', async (t) => {
    // Enough show that B can rewind well inside it.
    await waitUntil(async () => (await liveStatus())?.recordedSeconds >= REWIND_S + 7, { timeout: 30_000, message: 'enough show to rewind in' });
    // B's socket: when the message reached B's page (long before B may show it).
    let reachedB = null;
    const a = await onStage(ACCOUNTS.fanA);
    const b = await onStage(ACCOUNTS.fanB, {
      watchSocket: (page) => {
        page.on('websocket', (socket) => {
          socket.on('framereceived', ({ payload }) => {
            if (reachedB === null && String(payload).includes(posted.text)) reachedB = Date.now();
          });
        });
      },
    });

    // B rewinds and is then about that far behind A.
    const [aBefore, bBefore] = await Promise.all([audioTime(a.page), audioTime(b.page)]);
    // Measured from B's time at the seek itself: on a slow machine seconds can pass after
    // `bBefore`, and B, playing on, would never fall below a mark taken from it.
    const bAtSeek = await b.page.getByTestId('player-audio').evaluate((audio, rewind) => {
      const at = audio.currentTime;
      audio.currentTime = Math.max(0, at - rewind);
      return at;
    }, REWIND_S);
    await waitUntil(async () => (await audioTime(b.page)) < bAtSeek - REWIND_S + 2, { timeout: 5_000, message: 'B\'s seek back' });
    // Let B play on from there (the seek done, the clock moving).
    const bSeeked = await audioTime(b.page);
    await waitUntil(async () => (await audioTime(b.page)) > bSeeked + 0.5, { timeout: 10_000, message: 'B playing after the seek' });
    const [aNow, bNow] = await Promise.all([audioTime(a.page), audioTime(b.page)]);
    const behind = aNow - bNow;
    t.diagnostic(`before the seek A ${aBefore.toFixed(2)} s, B ${bBefore.toFixed(2)} s; after it A ${aNow.toFixed(2)} s, B ${bNow.toFixed(2)} s: B ${behind.toFixed(2)} s behind`);
    assert.ok(behind > REWIND_S - 1.5 && behind < REWIND_S + STALL_S, `B is ${behind.toFixed(2)} s behind A, not ${REWIND_S} s or a stall more`);
    assert.equal(await b.page.getByTestId('player-audio').evaluate((audio) => audio.paused), false, 'B plays on');

    await startWatch(b.page, posted.text);
    await startWatch(a.page, posted.text);

    // A posts from the stage's room; the server's answer carries the media time.
    const answer = a.page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname === `/api/v1/events/${show.concert.id}/chat`);
    const input = room(a.page).getByTestId('room-input');
    await input.fill(posted.text);
    const [aPositionAtSend, bPositionAtSend] = await Promise.all([audioTime(a.page), audioTime(b.page)]);
    await room(a.page).getByTestId('room-send').click();
    const response = await answer;
    const answeredAt = Date.now();
    const aPositionAtAnswer = await audioTime(a.page);
    assert.equal(response.status(), 201);
    posted.message = (await response.json()).payload;
    const M = posted.message.mediaTime;
    // B does not show it, right away: B's player, read with the room in one go, is before M.
    const bRightAway = await b.page.evaluate((wanted) => {
      const audio = document.querySelector('[data-testid="player-audio"]');
      const shown = [...document.querySelectorAll('[data-testid="room"] [data-testid="room-message"]')].some((element) => element.textContent.includes(wanted));
      return { ms: audio.currentTime * 1000, shown };
    }, posted.text);
    t.diagnostic(`A at ${Math.round(aPositionAtSend * 1000)} ms and B at ${Math.round(bPositionAtSend * 1000)} ms when A sent; the message's mediaTime ${M} ms`);
    // A's position when the click was handled: after the reading before it (less the room's
    // 250 ms re-reading of the player), before the one after the answer.
    const [sentFrom, answeredBy] = [Math.round(aPositionAtSend * 1000) - 500, Math.round(aPositionAtAnswer * 1000)];
    assert.ok(M >= sentFrom && M <= answeredBy, `the mediaTime ${M} is A's position when A sent it (between ${sentFrom} and ${answeredBy} ms)`);
    // The API agrees (fan A's own session).
    const page = await show.session(ACCOUNTS.fanA)('GET', `/api/v1/events/${show.concert.id}/chat`);
    assert.equal(page.status, 200);
    const stored = page.json.payload.messages.find((message) => message.id === posted.message.id);
    assert.equal(stored?.mediaTime, M, 'the stored message keeps its mediaTime');

    // A sees it at once (the diagnostic says how soon; a slow host may take seconds).
    await messages(a.page, posted.text).waitFor({ timeout: 10_000 });
    const aShownIn = Date.now() - answeredAt;
    assert.equal(await messages(a.page, posted.text).getAttribute('data-media-time'), String(M));

    assert.ok(bRightAway.ms < M - 1000, `B at ${Math.round(bRightAway.ms)} ms after the answer is well before the message's ${M} ms`);
    assert.equal(bRightAway.shown, false, 'B does not see it before B\'s player reaches it');

    // B sees it once B's player reaches M.
    await messages(b.page, posted.text).waitFor({ timeout: (REWIND_S + STALL_S + 5) * 1000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const samplesB = await readWatch(b.page, { stop: true });
    const samplesA = await readWatch(a.page, { stop: true });
    const atB = timing(samplesB, M);
    const atA = timing(samplesA, M);
    const hiddenSamples = samplesB.filter((s) => !s.shown && s.at >= answeredAt).length;
    t.diagnostic(
      `A showed it ${aShownIn} ms after the POST answer (A's watcher: ${atA.shown ? atA.shown.at - answeredAt : '?'} ms); ` +
        `B's socket had it ${reachedB === null ? '(never)' : reachedB - answeredAt} ms after the answer; ` +
        `B hid it for ${hiddenSamples} samples (${atB.shown.at - answeredAt} ms after the answer); ` +
        `B's player reached ${M} ms at ${atB.reached.at - answeredAt} ms and the message showed ${atB.delay} ms later (B's clock then ${Math.round(atB.shown.ms)} ms)`,
    );
    // B was more than a second short of M after the answer and plays at 1× (well behind
    // live, nothing hurries it): a second at least from the socket to the screen.
    assert.ok(reachedB !== null && atB.shown.at - reachedB > 1000, 'the message reached B\'s socket long before B showed it');
    assert.deepEqual(atB.early, [], 'B never showed it before its player reached the message\'s mediaTime');
    assert.ok(atB.reached && atB.shown, 'B reached the moment and showed the message');
    assert.ok(atB.shown.at - answeredAt > 1000, `B showed it ${atB.shown.at - answeredAt} ms after A posted: not right away`);
    assert.ok(atB.delay >= 0 && atB.delay <= LIVE_SLACK_MS, `B showed it ${atB.delay} ms after its player reached the mediaTime (at most ${LIVE_SLACK_MS} ms)`);

    await finish(a, [STREAM_ANSWERS]);
    await finish(b, [STREAM_ANSWERS]);
  });

  test('the replay: the message comes back when the replay reaches its media time; a seek past it shows it at once, a seek back hides it', async (t) => {
    assert.ok(posted.message, 'the live test posted the message');
    const M = posted.message.mediaTime;
    // The artist's side ends the show (the admin, through the API).
    const ended = await show.admin('POST', `/api/v1/events/${show.concert.id}/end`);
    assert.equal(ended.status, 200, JSON.stringify(ended.json));
    assert.equal(ended.json.payload.ended, true);
    show.push.kill('SIGKILL');
    await show.push.exited;

    const fan = await onStage(ACCOUNTS.fanA);
    const { page } = fan;
    const player = page.getByTestId('mini-player');
    await player.getByTestId('player-replay').waitFor({ timeout: 15_000 });
    assert.equal(await player.getAttribute('data-live'), 'false');
    t.diagnostic(`the replay opened at ${(await audioTime(page)).toFixed(2)} s; the message at ${M} ms`);

    // From the start: the message is not there until the replay reaches M.
    const start = await seekAndTime(page, 0, posted.text, false);
    assert.notEqual(start.elapsed, null, 'the message is hidden at the start of the replay');
    await startWatch(page, posted.text);
    await waitUntil(async () => (await audioTime(page)) > 0.5, { timeout: 10_000, message: 'the replay playing from the start' });
    await messages(page, posted.text).waitFor({ timeout: M + 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const samples = await readWatch(page, { stop: true });
    const replay = timing(samples, M);
    const firstSample = samples[0];
    t.diagnostic(`the replay started from ${Math.round(firstSample.ms)} ms; reached ${M} ms after ${replay.reached.at - firstSample.at} ms; the message showed ${replay.delay} ms after that (the clock then ${Math.round(replay.shown.ms)} ms)`);
    assert.ok(firstSample.ms < M - 3000 && !firstSample.shown, 'the replay started well before the message, without it');
    assert.deepEqual(replay.early, [], 'the replay never showed it before its mediaTime');
    assert.ok(replay.delay >= 0 && replay.delay <= REPLAY_SLACK_MS, `the replay showed it ${replay.delay} ms after reaching its mediaTime (at most ${REPLAY_SLACK_MS} ms)`);

    // Seeks: back before M hides it, past M shows it at once, back again hides it again.
    const back = await seekAndTime(page, Math.max(0, M / 1000 - 4), posted.text, false);
    const past = await seekAndTime(page, M / 1000 + 3, posted.text, true);
    const backAgain = await seekAndTime(page, Math.max(0, M / 1000 - 4), posted.text, false);
    t.diagnostic(`seek before M: hidden in ${back.elapsed} ms; past M: shown in ${past.elapsed} ms; before M again: hidden in ${backAgain.elapsed} ms`);
    for (const [what, result] of [['hidden after the seek back', back], ['shown after the seek past it', past], ['hidden after the second seek back', backAgain]]) {
      assert.ok(result.elapsed !== null && result.elapsed <= SEEK_SLACK_MS, `the message ${what} in ${result.elapsed} ms (at most ${SEEK_SLACK_MS} ms)`);
    }
    assert.equal(await page.getByTestId('player-audio').evaluate((audio) => audio.paused), false, 'the replay plays on');
    await finish(fan, [STREAM_ANSWERS]);
  });
});
