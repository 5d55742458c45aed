import { z } from 'zod';

/** The answer of a write that has nothing else to say. */
export const ZOk = z.object({ ok: z.boolean() });
