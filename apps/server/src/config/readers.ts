import { z } from 'zod';
import { bool } from './variables';

/** A reader service's base URL: `http` (types 1, 2) or `ws` (type 3) on the loopback address, where a browser finds the desk's own software. */
function readerUrl(scheme: 'http' | 'ws') {
  return z
    .string()
    .trim()
    .refine((value) => {
      try {
        const url = new URL(value);
        return (
          url.protocol === `${scheme}:` &&
          ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname) &&
          url.pathname === '/' &&
          !url.search &&
          !url.hash &&
          !url.username
        );
      } catch {
        return false;
      }
    }, `must be a ${scheme}:// URL on the loopback address (127.0.0.1, localhost or [::1]), with a port and no path`)
    .transform((value) => new URL(value).origin);
}

/** The desk card readers: the simulator run inside the server, or where the desk's own reader software listens. */
export const readersEnv = z.object({
  /** Run the desk card-reader simulator (apps/reader-sim) inside the server; default: on outside production. */
  READER_SIM: bool.optional(),
  READER_SIM_STATE_FILE: z.string().default('./data/reader-sim.json'),
  /** Its ports (spec §7; a taken one is replaced by a free one, said in the log); 0: any free port. */
  READER_SIM_TYPE1_PORT: z.coerce.number().int().min(0).max(65535).default(13570),
  READER_SIM_TYPE2_PORT: z.coerce.number().int().min(0).max(65535).default(8765),
  READER_SIM_TYPE3_PORT: z.coerce.number().int().min(0).max(65535).default(39002),
  READER_SIM_CONTROL_PORT: z.coerce.number().int().min(0).max(65535).default(13580),
  /**
   * Where the desk computers' own reader software listens when it is not on the usual address of
   * its type (docs/readers.md): a URL on the loopback address. The console calls it there, names
   * it with that address and its page may call it (CSP). Ignored while the simulator runs.
   */
  READER_TYPE1_URL: readerUrl('http').optional(),
  READER_TYPE2_URL: readerUrl('http').optional(),
  READER_TYPE3_URL: readerUrl('ws').optional(),
});
type ReadersEnv = z.output<typeof readersEnv>;

/** The readers as the server reads them (the simulator on by default outside production). */
export function readerSettings(env: ReadersEnv, production: boolean) {
  return {
    sim: {
      enabled: env.READER_SIM ?? !production,
      stateFile: env.READER_SIM_STATE_FILE,
      ports: { type1: env.READER_SIM_TYPE1_PORT, type2: env.READER_SIM_TYPE2_PORT, type3: env.READER_SIM_TYPE3_PORT, control: env.READER_SIM_CONTROL_PORT },
    },
    /** The hotel's reader software where it is not on the usual addresses (READER_TYPEn_URL). */
    urls: { type1: env.READER_TYPE1_URL, type2: env.READER_TYPE2_URL, type3: env.READER_TYPE3_URL },
    /** Where the simulator started by this server listens (set by startServer), for the console's drivers. */
    simUrls: null as { type1: string; type2: string; type3: string; control: string } | null,
  };
}
