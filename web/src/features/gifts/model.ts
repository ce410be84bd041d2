import type { Body, Schema } from '../../lib/api-types';

export type MyTicket = Schema<'MyTicket'>;
export type Gift = Schema<'Gift'>;
export type GiftPreview = Schema<'GiftPreview'>;
export type GiveInput = Body<'commerce.give'>;
