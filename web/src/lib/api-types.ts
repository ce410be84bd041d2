// The API's payload types, from the OpenAPI document the server generates
// (web/openapi.json → src/lib/api-schema.ts, written by `npm run gen:api` before every
// build and type-check). A server change the client does not follow fails `tsc`.
import type { components, operations } from './api-schema';

/** A payload type of the API by its schema name, e.g. `Schema<'About'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** An operation by its id in the document (`<tag>.<handler>`, e.g. `events.list`). */
export type Operation = keyof operations;

type Success<Op extends Operation> = operations[Op]['responses'] extends infer R
  ? R[Extract<keyof R, 200 | 201>] extends { content: { 'application/json': infer Body } }
    ? Body
    : never
  : never;

/** The payload of an operation's success envelope, e.g. `Payload<'events.list'>` (a page of concerts). */
export type Payload<Op extends Operation> = Success<Op> extends { payload?: infer P } ? Exclude<P, undefined> : never;

/** An operation's JSON request body, e.g. `Body<'events.create'>`. */
export type Body<Op extends Operation> = operations[Op] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;

/** An operation's query parameters, e.g. `Query<'events.list'>`. */
export type Query<Op extends Operation> = NonNullable<operations[Op]['parameters']['query']>;
