import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Bell, FlaskConical } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip';
import { formatNumber } from '@/lib/format';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { layoutQueries } from './api';
import { SimulatedBadge } from './simulated-badge';

/**
 * "Simulated locks", while the server speaks to the lock simulator: nothing the console shows about
 * locks happened at a real door. The tooltip says so.
 */
export function SimulatedLocksBadge() {
  const { t } = useTranslation();
  // Which provider the server uses does not change while it runs. A failure says nothing: no badge.
  const provider = useQuery(layoutQueries.lockProvider());
  if (!provider.data?.simulated) return null;
  return (
    <SimulatedBadge
      icon={FlaskConical}
      label={t('credentials.simulatedBadge')}
      hint={t('layout.simulatedLocksHint')}
      testId="simulated-locks-badge"
      hintTestId="simulated-locks-hint"
    />
  );
}

/** The bell: how many lock messages are unread, a link to them. Shown to members who may see rooms. */
export function LockMessagesBell() {
  const user = useUserInfo();
  if (!hasPermission(user, 'room.read')) return null;
  return <UnreadBell />;
}

function UnreadBell() {
  const { t } = useTranslation();
  const unread = useQuery(layoutQueries.unreadLockMessages());
  const count = unread.data?.unread ?? 0;
  const label = t('lockMessages.bell', { number: formatNumber(count) });
  return (
    <Tooltip>
      <TooltipTrigger asChild>
        <Button asChild variant="ghost" size="icon" className="relative">
          <Link to="/lock-messages" aria-label={label} data-testid="lock-messages-bell" data-count={unread.data ? count : undefined}>
            <Bell className="size-5" aria-hidden />
            {count > 0 && (
              <span
                className="bg-destructive text-destructive-foreground absolute -end-0.5 -top-0.5 flex h-4.5 min-w-4.5 items-center justify-center rounded-full px-1 text-[0.6875rem] leading-none font-semibold tabular-nums"
                aria-hidden
                data-testid="lock-messages-count"
              >
                {count > 99 ? `${formatNumber(99)}+` : formatNumber(count)}
              </span>
            )}
          </Link>
        </Button>
      </TooltipTrigger>
      <TooltipContent>{label}</TooltipContent>
    </Tooltip>
  );
}
