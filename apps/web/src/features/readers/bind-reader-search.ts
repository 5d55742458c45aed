import { int, optional, searchSchema } from '../../lib/url-search';

// Read by the route (routes/_auth/bindCardReaderToUser/bindCardReaderToUser.tsx) before the page's
// chunk is loaded: kept apart from the page, without zod (lib/url-search.ts).

/** `?id=<reader>`: bind a registered reader; without it, the reader attached to this computer. */
export const bindReaderSearchSchema = searchSchema({ id: optional(int({ min: 1 })) });
