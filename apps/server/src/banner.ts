import { DEMO } from './db/seed';

/** What the start banner names: the console's address, and what runs simulated or is left off. */
export interface BannerFacts {
  url: string;
  hasDemo: boolean;
  lockSimUrl: string | null;
  readerSim: { type1: string; type2: string; type3: string; controlUrl: string } | null;
  /** PUBLIC_URL: without it the guests' messages carry no key page link (docs/key-page.md). */
  publicUrl: string | undefined;
}

/** The lines `pnpm start` prints once the console is ready (main.ts). */
export function startBanner(facts: BannerFacts): string {
  return (
    `\n  Smart Lock Console is ready: http://localhost:${new URL(facts.url).port}\n` +
    (facts.hasDemo ? `  Demo sign-in: ${DEMO.owner.mobile} / ${DEMO.owner.password} (owner), ${DEMO.staff.mobile} / ${DEMO.staff.password} (staff)\n` : '') +
    (facts.lockSimUrl ? `  Locks: SIMULATED (no real locks); the simulator's control API is ${facts.lockSimUrl}/sim\n` : '') +
    (facts.readerSim
      ? `  Readers: SIMULATED (no real card reader; for a browser on this machine): type 1 ${facts.readerSim.type1}, type 2 ${facts.readerSim.type2}, type 3 ${facts.readerSim.type3}; control API ${facts.readerSim.controlUrl}\n`
      : '') +
    (facts.publicUrl
      ? ''
      : "  Key page links: OFF. PUBLIC_URL is not set, so messages to guests carry no link to their key page; set it to this console's public address (https://...)\n") +
    '  Stop with Ctrl+C.\n\n'
  );
}
