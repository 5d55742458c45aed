import { Suspense, lazy } from 'react';
import { createFileRoute, redirect } from '@tanstack/react-router';
import { MainLayout } from '@/features/layout/main-layout';
import { readUserInfo } from '@/lib/user-info';

/**
 * The desk's room cards, a chunk of their own after the first paint: "Read card" in the navbar
 * (spec §4) and the card-writing dialog any page may ask for (lib/room-cards.ts).
 */
const loadDeskCards = () => import('@/features/cards/desk-cards');
const ReadCardButton = lazy(() => loadDeskCards().then((m) => ({ default: m.ReadCardButton })));
const RoomCardsHost = lazy(() => loadDeskCards().then((m) => ({ default: m.RoomCardsHost })));

function AuthLayout() {
  return (
    <MainLayout
      navbarActions={
        <Suspense fallback={null}>
          <ReadCardButton />
        </Suspense>
      }
    >
      <Suspense fallback={null}>
        <RoomCardsHost />
      </Suspense>
    </MainLayout>
  );
}

/** Spec §2 route guard: without stored user info, every page sends the user to /login?redirect=<wanted path>. */
export const Route = createFileRoute('/_auth')({
  beforeLoad: ({ location }) => {
    if (!readUserInfo()) throw redirect({ to: '/login', search: { redirect: location.href } });
  },
  component: AuthLayout,
});
