import { Skeleton } from '@/components/ui/skeleton';

/** The table view while its rooms (or its chunk: see room-board-page.tsx) load. */
export function RoomTableSkeleton({ label }: { label: string }) {
  return (
    <div className="space-y-2 p-3" aria-busy="true" aria-label={label}>
      {Array.from({ length: 8 }, (_, i) => (
        <Skeleton key={i} className="h-11 w-full" />
      ))}
    </div>
  );
}
