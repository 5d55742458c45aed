import { Suspense, lazy, useCallback, useEffect, useRef, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Outlet, useRouterState } from '@tanstack/react-router';
import { PanelLeftClose, PanelLeftOpen } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TooltipProvider } from '@/components/ui/tooltip';
import { RenderedInBackground, useWhenIdle } from '@/lib/lazy';
import { LIMITS } from '@console/shared';
import { writeUserInfo } from '@/lib/user-info';
import { layoutQueries } from './api';
import { Breadcrumb } from './breadcrumb';
import { LockMessagesBell, SimulatedLocksBadge } from './lock-indicators';
import { LanguageSelect } from '@/components/language-select';
import { Sidebar } from './sidebar';
import { UserMenu } from './user-menu';
import { useSidebar } from './use-sidebar';

/**
 * The "simulated reader" badge is not part of the first download: it appears once its chunk (and
 * the server's answer) is there, asked for once the browser is idle after the page has loaded.
 */
const SimulatedReaderBadge = lazy(() => import('./reader-indicator').then((m) => ({ default: m.SimulatedReaderBadge })));
function DeferredSimulatedReaderBadge() {
  return useWhenIdle() ? (
    <Suspense fallback={null}>
      <SimulatedReaderBadge />
    </Suspense>
  ) : null;
}

/** The signed-in layout of spec §2 (the route adds `navbarActions` before the lock messages, and `children` hosted once for every page): sidebar, navbar (toggle, breadcrumb, simulated-locks and simulated-reader badges, lock messages, language, user menu), page. */
export function MainLayout({ navbarActions, children }: { navbarActions?: ReactNode; children?: ReactNode } = {}) {
  const { t } = useTranslation();
  // The page the router has finished showing (its path and search), empty while it is on its way to
  // another: what a browser test waits for after a navigation (e2e/support.ts `visit`).
  const shown = useRouterState({ select: (s) => (s.status === 'idle' ? `${s.resolvedLocation?.pathname ?? ''}${s.resolvedLocation?.searchStr ?? ''}` : '') });
  const sidebar = useSidebar();
  const toggle = useRef<HTMLButtonElement>(null);
  // On a narrow screen the open sidebar is a drawer over the page: the page waits behind it.
  const isDrawerOpen = sidebar.isMobile && sidebar.isOpen;
  const { setOpen } = sidebar;
  const closeDrawer = useCallback(() => setOpen(false), [setOpen]);
  // A drawer that closes gives the focus back to the button that opened it (once the page is no longer inert).
  const wasDrawerOpen = useRef(false);
  useEffect(() => {
    const focus = document.activeElement;
    if (wasDrawerOpen.current && !isDrawerOpen && (!focus || focus === document.body || focus.closest('[data-testid="sidebar"]'))) toggle.current?.focus();
    wasDrawerOpen.current = isDrawerOpen;
  }, [isDrawerOpen]);
  useEffect(() => {
    if (!isDrawerOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      event.preventDefault();
      closeDrawer();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [isDrawerOpen, closeDrawer]);
  return (
    <TooltipProvider delayDuration={300}>
      <div className="flex h-full">
        <Sidebar isOpen={sidebar.isOpen} isMobile={sidebar.isMobile} onNavigate={() => sidebar.isMobile && sidebar.setOpen(false)} onClose={closeDrawer} />
        {isDrawerOpen && <div className="fixed inset-0 z-30 bg-black/40" aria-hidden data-testid="sidebar-overlay" onClick={closeDrawer} />}
        <div className="flex min-w-0 flex-1 flex-col" inert={isDrawerOpen}>
          <header className="bg-background flex h-14 shrink-0 items-center gap-2 border-b px-3">
            <Button
              ref={toggle}
              variant="ghost"
              size="icon"
              data-testid="sidebar-toggle"
              aria-expanded={sidebar.isOpen}
              aria-label={sidebar.isOpen ? t('layout.collapseMenu') : t('layout.expandMenu')}
              onClick={sidebar.toggle}
            >
              {sidebar.isOpen ? (
                <PanelLeftClose className="size-5 rtl:rotate-180" aria-hidden />
              ) : (
                <PanelLeftOpen className="size-5 rtl:rotate-180" aria-hidden />
              )}
            </Button>
            <Breadcrumb />
            <div className="ms-auto flex items-center gap-1">
              <SimulatedLocksBadge />
              <DeferredSimulatedReaderBadge />
              {navbarActions}
              <LockMessagesBell />
              <LanguageSelect />
              <UserMenu />
            </div>
          </header>
          <main className="min-h-0 flex-1 overflow-auto p-4 md:p-6" data-route={shown}>
            {/* The first page of a visit is rendered in the background right after the layout, not in
                the same long task (issue 18 §4); later pages come as the router brings them. */}
            <RenderedInBackground>
              <Outlet />
            </RenderedInBackground>
          </main>
        </div>
      </div>
      <UserInfoRefresh />
      {children}
    </TooltipProvider>
  );
}

/**
 * The layout's frame without its contents (the sidebar's and the navbar's places, their colours):
 * what shows for the few milliseconds the layout takes to render in the background when the
 * signed-in console first appears (routes/_auth.tsx), instead of a blank page. Nothing moves when
 * the layout replaces it.
 */
export function LayoutShell() {
  const { isOpen, isMobile } = useSidebar();
  return (
    <div className="flex h-full" aria-hidden data-testid="layout-shell">
      {!isMobile && <div className="bg-sidebar shrink-0" style={{ width: isOpen ? LIMITS.sidebarWidthPx : 56 }} />}
      <div className="flex min-w-0 flex-1 flex-col">
        <div className="bg-background h-14 shrink-0 border-b" />
      </div>
    </div>
  );
}

/**
 * Refreshes the stored user info (permissions, apiKeyAuth) and finds an expired session early. Its
 * failures say nothing of their own: the stored info stays, and the page's lists show theirs. A
 * component of its own: the answer re-renders nothing else (what changed re-renders its readers).
 */
function UserInfoRefresh() {
  const me = useQuery(layoutQueries.me());
  useEffect(() => {
    if (me.data) writeUserInfo(me.data);
  }, [me.data]);
  return null;
}
