import { useDeferredValue, useEffect, useRef, type KeyboardEvent } from 'react';
import { Link, useRouterState } from '@tanstack/react-router';
import { X } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { useUserInfo } from '@/lib/user-info';
import { MENU, activeMenuKey, visibleMenu, type MenuItem } from './menu';

interface SidebarProps {
  isOpen: boolean;
  isMobile: boolean;
  onNavigate(): void;
  /** Closes the drawer of a narrow screen (its × button; Escape is handled by the layout). */
  onClose(): void;
}

const FOCUSABLE = 'a[href], button:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Open: 210px with labels. Collapsed on a wide screen: icons only. On a narrow screen: a drawer
 * over the page, a modal one while open (focus stays inside, × and Escape close it), out of the
 * keyboard's way while closed.
 */
export function Sidebar({ isOpen, isMobile, onNavigate, onClose }: SidebarProps) {
  const { t } = useTranslation();
  const user = useUserInfo();
  const items = visibleMenu(MENU, user);
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  // One entry lit per page: the nearest parent of the current page.
  const activeKey = activeMenuKey(items, pathname);
  const isCompact = !isOpen && !isMobile;
  const isDrawer = isMobile && isOpen;
  // A closed drawer (a phone) shows nothing: its entries are rendered in the background after the
  // page, not in the page's first render (issue 18 §4); an open sidebar has them at once.
  const hasEntries = useDeferredValue(true, !isMobile || isOpen);
  const closeButton = useRef<HTMLButtonElement>(null);
  const aside = useRef<HTMLElement>(null);

  useEffect(() => {
    if (isDrawer) closeButton.current?.focus();
  }, [isDrawer]);

  // Tab and Shift+Tab go round the drawer's own links and buttons.
  const trapFocus = (event: KeyboardEvent<HTMLElement>) => {
    if (!isDrawer || event.key !== 'Tab' || !aside.current) return;
    const focusable = [...aside.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = focusable[0];
    const last = focusable.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <aside
      ref={aside}
      data-testid="sidebar"
      data-state={isOpen ? 'open' : 'closed'}
      aria-label={t('layout.navigation')}
      // A closed drawer is off screen: nothing in it can be reached by the keyboard.
      inert={isMobile && !isOpen}
      onKeyDown={trapFocus}
      style={{ width: isCompact ? 56 : LIMITS.sidebarWidthPx }}
      className={cn(
        'bg-sidebar text-sidebar-foreground flex shrink-0 flex-col transition-[width,translate] duration-200',
        isMobile && 'fixed inset-y-0 start-0 z-40 shadow-xl',
        isMobile && !isOpen && '-translate-x-full rtl:translate-x-full',
      )}
    >
      {/* A drawer on a narrow screen is a modal dialog (an `aside` may not be one). */}
      <div
        className="flex min-h-0 flex-1 flex-col"
        role={isDrawer ? 'dialog' : undefined}
        aria-modal={isDrawer || undefined}
        aria-label={isDrawer ? t('layout.navigation') : undefined}
      >
        <div className="border-sidebar-border flex h-14 items-center gap-2 border-b px-3">
          <img src="/favicon.svg" alt="" className="size-8 shrink-0" />
          {!isCompact && <span className="min-w-0 flex-1 truncate text-sm font-semibold text-white">{t('app.title')}</span>}
          {isMobile && (
            <Button
              ref={closeButton}
              variant="ghost"
              size="icon-sm"
              className="hover:bg-sidebar-accent hover:text-sidebar-accent-foreground shrink-0 text-white"
              onClick={onClose}
              aria-label={t('layout.closeMenu')}
              data-testid="sidebar-close"
            >
              <X aria-hidden />
            </Button>
          )}
        </div>
        <nav className="flex-1 overflow-y-auto py-3" aria-label={t('layout.navigation')}>
          <ul className="space-y-1 px-2">
            {(hasEntries || isOpen) &&
              items.map((item) => <MenuEntry key={item.key} item={item} activeKey={activeKey} isCompact={isCompact} onNavigate={onNavigate} />)}
          </ul>
        </nav>
      </div>
    </aside>
  );
}

function MenuEntry({ item, activeKey, isCompact, onNavigate }: { item: MenuItem; activeKey: string | undefined; isCompact: boolean; onNavigate(): void }) {
  const { t } = useTranslation();
  if (item.children) {
    return (
      <li>
        {!isCompact && <div className="text-sidebar-foreground/60 px-3 pt-2 pb-1 text-xs font-medium tracking-wide uppercase">{t(item.titleKey)}</div>}
        <ul className="space-y-1">
          {item.children.map((child) => (
            <MenuEntry key={child.key} item={child} activeKey={activeKey} isCompact={isCompact} onNavigate={onNavigate} />
          ))}
        </ul>
      </li>
    );
  }
  const Icon = item.icon;
  const isActive = item.key === activeKey;
  const link = (
    <Link
      to={item.to}
      // The router's own highlight would light every parent of the page (`/room` on `/room/tenant`):
      // the menu decides (activeMenuKey), the router only agrees on exact matches.
      activeOptions={{ exact: true, includeSearch: false }}
      onClick={onNavigate}
      className={cn(
        'hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-ring flex h-10 items-center gap-3 rounded-md px-3 text-sm outline-none focus-visible:ring-2',
        isActive && 'bg-primary! text-primary-foreground!',
      )}
      aria-current={isActive ? 'page' : undefined}
      data-testid={`menu-${item.key}`}
      data-active={isActive}
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      {!isCompact && <span className="truncate">{t(item.titleKey)}</span>}
      {isCompact && <span className="sr-only">{t(item.titleKey)}</span>}
    </Link>
  );
  return (
    <li>
      {isCompact ? (
        <Tooltip>
          <TooltipTrigger asChild>{link}</TooltipTrigger>
          <TooltipContent side={document.documentElement.dir === 'rtl' ? 'left' : 'right'}>{t(item.titleKey)}</TooltipContent>
        </Tooltip>
      ) : (
        link
      )}
    </li>
  );
}
