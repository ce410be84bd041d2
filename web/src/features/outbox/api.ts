import { API_PREFIX } from '../../lib/constants';
import { ApiError } from '../../lib/errors';
import type { Schema } from '../../lib/api-types';
import { request } from '../../lib/http';

/** One message of the dev mail/SMS outbox (GET /outbox); `redacted`: its links and codes were replaced by "•••". */
export type OutboxMessage = Schema<'OutboxItem'>;

/** `enabled` is false (and no items) when real e-mail and SMS providers are configured. */
export type Outbox = Schema<'Outbox'>;

const BASE = `${API_PREFIX}/outbox`;

export const getOutbox = (limit: number): Promise<Outbox> => request<Outbox>(BASE, { query: { limit } });

/** Whether the dev outbox is in use, asked by the menu: a refusal is an answer, not a 403 page. */
export async function outboxInUse(): Promise<boolean> {
  try {
    return (await request<Outbox>(BASE, { query: { limit: 1 }, forbiddenIsAnswer: true })).enabled;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return false;
    throw error;
  }
}
