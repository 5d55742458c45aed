import { z } from 'zod';

/** A yes-or-no variable: `true`, `1`, `yes` or `false`, `0`, `no`. */
export const bool = z.enum(['true', 'false', '1', '0', 'yes', 'no']).transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A combination of values the server refuses to start with: the variable to change, and what to set. */
export interface Refusal {
  path: string;
  message: string;
}
