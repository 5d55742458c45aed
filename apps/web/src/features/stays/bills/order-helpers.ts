import { useQueryClient } from '@tanstack/react-query';
import { appErrorOf } from '@/lib/api-errors';
import { invalidateStayMoney } from '../api';
import type { RouterOutputs } from '@/lib/trpc-types';

export type FolioDto = RouterOutputs['order']['folio'];
export type OrderEntryDto = FolioDto['entries'][number];

/** After money was recorded or a folio settled: the folio, the order list and the cash report are asked again. */
export function useInvalidateOrders(): () => Promise<void> {
  const queryClient = useQueryClient();
  // A bill's figure shows on the board's "due" mark, the stay lists and the today board too.
  return () => invalidateStayMoney(queryClient);
}

/** What a refused settlement says is owed now (`orders.errors.balanceOwed` / `paymentNotOwed` carry `details.owed`). */
export function owedOfRefusal(error: unknown): number | null {
  const owed = appErrorOf(error)?.details?.owed;
  return typeof owed === 'number' ? owed : null;
}
