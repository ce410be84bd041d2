// The API's payload types, from the OpenAPI document the server generates
// (web/openapi.json → src/lib/api-schema.ts, written by `npm run gen:api` before every
// build and type-check). A server change the client does not follow fails `tsc`.
import type { components } from './api-schema';

/** A payload type of the API by its schema name, e.g. `Schema<'About'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];
