/**
 * Reaction clicks, sent together: at most one flush every `REACTION_BATCH_MS`, each
 * reaction clicked since sent once with its clicks as `count` (20 at most; the rest go with
 * the next flush). A room of cheering fans makes a few requests a second, not one per click.
 */
import type { PendingReactions, ReactionKind } from './model';
import { REACTION_BATCH_MS, takeReactions } from './model';

export interface ReactionBatcher {
  /** A click, with where the reader is in the show (ms, or null when not playing it): a batch
   * carries the place of its last click. */
  click: (kind: ReactionKind, mediaTime: number | null) => void;
  /** Drops what waits (the component is gone). */
  stop: () => void;
}

export function createReactionBatcher(
  send: (kind: ReactionKind, count: number, mediaTime: number | null) => void,
  now: () => number = Date.now,
): ReactionBatcher {
  let pending: PendingReactions = {};
  let where: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastSent = -Infinity;

  const flush = (): void => {
    timer = undefined;
    const { send: requests, left } = takeReactions(pending);
    pending = left;
    lastSent = now();
    for (const { kind, count } of requests) send(kind, count, where);
    if (Object.keys(left).length > 0) schedule();
  };
  const schedule = (): void => {
    if (timer !== undefined) return;
    timer = setTimeout(flush, Math.max(0, lastSent + REACTION_BATCH_MS - now()));
  };
  return {
    click: (kind, mediaTime) => {
      where = mediaTime;
      pending = { ...pending, [kind]: (pending[kind] ?? 0) + 1 };
      schedule();
    },
    stop: () => {
      clearTimeout(timer);
      timer = undefined;
      pending = {};
    },
  };
}
