import { Suspense, lazy } from 'react';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { LayoutShell, MainLayout } from '@/features/layout/main-layout';
import { useDeskShortcuts } from '@/features/search/desk-shortcuts';
import { SearchButton } from '@/features/search/search-button';
import { useGuestKeysRequest } from '@/lib/stay-keys';
import { RenderedInBackground, useWhenIdle } from '@/lib/lazy';
import { useLiveEvents } from '@/lib/live-events';
import { useRoomCardRequest } from '@/lib/room-cards';
import { usePalette } from '@/lib/shortcuts';
import { readUserInfo } from '@/lib/user-info';

/**
 * The desk's room cards, a chunk of their own after the first paint: "Read card" in the navbar
 * (spec §4) and the card-writing dialog any page may ask for (lib/room-cards.ts).
 */
const loadDeskCards = () => import('@/features/cards/desk-cards');
const ReadCardButton = lazy(() => loadDeskCards().then((m) => ({ default: m.ReadCardButton })));
const RoomCardsHost = lazy(() => loadDeskCards().then((m) => ({ default: m.RoomCardsHost })));
/** What the guest holds after a check-in, a room change or a renewal (lib/stay-keys.ts): a chunk of its own too. */
const GuestKeysHost = lazy(() => import('@/features/stay-keys/stay-keys-host').then((m) => ({ default: m.GuestKeysHost })));

/**
 * The three are mounted once the browser is idle after the page has loaded (or at once when a
 * screen asks for cards or keys before that): the button shows only with the later texts anyway,
 * and the hosts show nothing without a request. Their chunks (the reader drivers, zod) are then
 * not fetched and run while the page loads (issue 18 §4).
 */
function DeferredReadCardButton() {
  const idle = useWhenIdle();
  return idle ? (
    <Suspense fallback={null}>
      <ReadCardButton />
    </Suspense>
  ) : null;
}

function DeferredRoomCardsHost() {
  const idle = useWhenIdle();
  const request = useRoomCardRequest();
  return idle || request ? (
    <Suspense fallback={null}>
      <RoomCardsHost />
    </Suspense>
  ) : null;
}

/** The search box and the list of shortcuts (features/search, issue 28 §3): a chunk of its own, mounted when idle or at once when a key opens one. */
const SearchHost = lazy(() => import('@/features/search/search-host').then((m) => ({ default: m.SearchHost })));
function DeferredSearchHost() {
  const idle = useWhenIdle();
  const palette = usePalette();
  return idle || palette ? (
    <Suspense fallback={null}>
      <SearchHost />
    </Suspense>
  ) : null;
}

function DeferredGuestKeysHost() {
  const idle = useWhenIdle();
  const request = useGuestKeysRequest();
  return idle || request ? (
    <Suspense fallback={null}>
      <GuestKeysHost />
    </Suspense>
  ) : null;
}

/**
 * The layout and the first page are rendered in the background when the signed-in console appears
 * (lib/lazy.ts: in slices of a few milliseconds, not one long task; issue 18 §4), its frame
 * meanwhile.
 */
function AuthLayout() {
  // One live feed per signed-in tab: every screen's figures follow changes made anywhere.
  useLiveEvents();
  // The desk's keyboard: the search box (Ctrl+K, /), the list of shortcuts (?), the frequent actions.
  useDeskShortcuts();
  return (
    <RenderedInBackground fallback={<LayoutShell />}>
      <MainLayout
        navbarActions={
          <>
            <SearchButton />
            <DeferredReadCardButton />
          </>
        }
      >
        <DeferredRoomCardsHost />
        <DeferredSearchHost />
        <DeferredGuestKeysHost />
      </MainLayout>
    </RenderedInBackground>
  );
}

/** Spec §2 route guard: without stored user info, every page sends the user to /login?redirect=<wanted path>. */
export const Route = createFileRoute('/_auth')({
  beforeLoad: ({ location }) => {
    if (!readUserInfo()) throw redirect({ to: '/login', search: { redirect: location.href } });
  },
  component: AuthLayout,
});
