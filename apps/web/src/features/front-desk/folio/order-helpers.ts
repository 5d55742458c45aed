import { useQueryClient } from '@tanstack/react-query';
import { appErrorOf } from '@/lib/api-errors';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';

export type FolioDto = RouterOutputs['order']['folio'];
export type OrderEntryDto = FolioDto['entries'][number];

/** After money was recorded or a folio settled: the folio, the order list and the cash report are asked again. */
export function useInvalidateOrders(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.order.pathKey() });
  };
}

/** What a refused settlement says is owed now (`orders.errors.balanceOwed` / `paymentNotOwed` carry `details.owed`). */
export function owedOfRefusal(error: unknown): number | null {
  const owed = appErrorOf(error)?.details?.owed;
  return typeof owed === 'number' ? owed : null;
}
