/**
 * Every benchmark of `pnpm bench`, in the order it runs them (every.ts), each as the arguments of
 * `tsx`: the list `pnpm bench:smoke` (smoke.ts) smokes too. A new benchmark is added here.
 */
export const BENCHMARKS: string[][] = [
  ['run-all.ts'],
  ['room-board.ts'],
  ['front-desk.ts'],
  ['contention.ts'],
  ['lock-delivery.ts'],
  ['lock-records.ts'],
  ['--openssl-legacy-provider', 'lock-calls.ts'],
  ['--openssl-legacy-provider', 'lock-calls.ts', 'seam'],
  ['unlock-page.ts'],
  ['bundle-size.ts'],
  ['--openssl-legacy-provider', 'card-data.ts'],
  ['--openssl-legacy-provider', 'card-issue.ts'],
  ['--openssl-legacy-provider', 'today-board.ts'],
  ['--openssl-legacy-provider', 'export.ts'],
  ['--openssl-legacy-provider', 'audit-log.ts'],
  ['feeds.ts'],
  ['--openssl-legacy-provider', 'arrivals.ts'],
  ['--openssl-legacy-provider', 'arrivals.ts', 'seam'],
  ['lighthouse.ts'],
  ['--openssl-legacy-provider', 'reports.ts'],
  ['--openssl-legacy-provider', 'events.ts'],
  ['timeline.ts'],
  ['timeline-paint.ts'],
  ['--openssl-legacy-provider', 'search.ts'],
  ['--openssl-legacy-provider', 'api.ts'],
  ['--openssl-legacy-provider', 'webhooks.ts'],
];

/** A benchmark's name: its file, and its own arguments after it (`arrivals.ts seam`). */
export const nameOf = (args: string[]) => args.slice(args.findIndex((a) => a.endsWith('.ts'))).join(' ');
