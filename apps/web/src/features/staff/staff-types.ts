import type { RouterOutputs } from '@/lib/trpc-types';

/** A member of the hotel as the staff list answers it. */
export type StaffMember = RouterOutputs['staff']['list']['items'][number];
