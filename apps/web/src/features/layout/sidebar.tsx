import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@console/shared';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { cn } from '@/lib/utils';
import { useUserInfo } from '@/lib/user-info';
import { MENU, visibleMenu, type MenuItem } from './menu';

interface SidebarProps {
  isOpen: boolean;
  isMobile: boolean;
  onNavigate(): void;
}

/** Open: 210px with labels. Collapsed on a wide screen: icons only. On a narrow screen: a drawer over the page. */
export function Sidebar({ isOpen, isMobile, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const user = useUserInfo();
  const items = visibleMenu(MENU, user);
  const isCompact = !isOpen && !isMobile;
  return (
    <aside
      data-testid="sidebar"
      data-state={isOpen ? 'open' : 'closed'}
      aria-label={t('layout.navigation')}
      style={{ width: isCompact ? 56 : LIMITS.sidebarWidthPx }}
      className={cn(
        'bg-sidebar text-sidebar-foreground flex shrink-0 flex-col transition-[width,translate] duration-200',
        isMobile && 'fixed inset-y-0 start-0 z-40 shadow-xl',
        isMobile && !isOpen && '-translate-x-full rtl:translate-x-full',
      )}
    >
      <div className="border-sidebar-border flex h-14 items-center gap-2 border-b px-3">
        <img src="/favicon.svg" alt="" className="size-8 shrink-0" />
        {!isCompact && <span className="truncate text-sm font-semibold text-white">{t('app.title')}</span>}
      </div>
      <nav className="flex-1 overflow-y-auto py-3">
        <ul className="space-y-1 px-2">
          {items.map((item) => (
            <MenuEntry key={item.key} item={item} isCompact={isCompact} onNavigate={onNavigate} />
          ))}
        </ul>
      </nav>
    </aside>
  );
}

function MenuEntry({ item, isCompact, onNavigate }: { item: MenuItem; isCompact: boolean; onNavigate(): void }) {
  const { t } = useTranslation();
  if (item.children) {
    return (
      <li>
        {!isCompact && <div className="text-sidebar-foreground/60 px-3 pt-2 pb-1 text-xs font-medium tracking-wide uppercase">{t(item.titleKey)}</div>}
        <ul className="space-y-1">
          {item.children.map((child) => (
            <MenuEntry key={child.key} item={child} isCompact={isCompact} onNavigate={onNavigate} />
          ))}
        </ul>
      </li>
    );
  }
  const Icon = item.icon;
  const link = (
    <Link
      to={item.to}
      onClick={onNavigate}
      className="hover:bg-sidebar-accent hover:text-sidebar-accent-foreground focus-visible:ring-ring flex h-10 items-center gap-3 rounded-md px-3 text-sm outline-none focus-visible:ring-2"
      activeProps={{ className: 'bg-primary! text-primary-foreground!', 'aria-current': 'page' }}
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
