import { BatteryFull, BatteryLow, BatteryMedium, Grid3x3, Nfc, Router, ScanFace, Wifi, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { HotelLock } from './lock-accounts';

/** Keypad, card reader, face module: small icons, each named for screen readers and on hover. */
export function Features({ lock }: { lock: HotelLock }) {
  const { t } = useTranslation();
  const features = [
    { key: 'keypad', has: lock.capabilities.keypad, Icon: Grid3x3 },
    { key: 'cardReader', has: lock.capabilities.cardReader, Icon: Nfc },
    { key: 'faceModule', has: lock.capabilities.faceModule, Icon: ScanFace },
  ].filter((f) => f.has);
  if (features.length === 0) return <span className="text-muted-foreground text-xs">{t('lockAccounts.features.none')}</span>;
  return (
    <ul className="flex items-center gap-1.5" aria-label={t('lockAccounts.columns.features')} data-testid="lock-features">
      {features.map(({ key, Icon }) => (
        <li key={key} className="bg-muted flex size-7 items-center justify-center rounded-md" title={t(`lockAccounts.features.${key}`)} data-feature={key}>
          <Icon className="size-4" aria-hidden />
          <span className="sr-only">{t(`lockAccounts.features.${key}`)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Battery, online or not, and the gateway it is heard through, as the lock cloud last said. */
export function LockState({ lock }: { lock: HotelLock }) {
  const { t } = useTranslation();
  const OnlineIcon = lock.online ? Wifi : WifiOff;
  return (
    <>
      {lock.battery !== null && <Battery percent={lock.battery} />}
      <span
        className={cn(
          'inline-flex items-center gap-1 text-xs',
          lock.online === null ? 'text-muted-foreground' : lock.online ? 'text-emerald-700' : 'text-destructive',
        )}
        data-testid="lock-online"
      >
        {lock.online !== null && <OnlineIcon className="size-3.5 shrink-0" aria-hidden />}
        {lock.online === null ? t('locks.notRead') : lock.online ? t('locks.online') : t('locks.offline')}
      </span>
      <span className="text-muted-foreground inline-flex min-w-0 items-center gap-1 text-xs">
        <Router className="size-3.5 shrink-0" aria-hidden />
        <span className="truncate" dir="auto">
          {lock.gateway ? t('lockAccounts.viaGateway', { gateway: lock.gateway }) : t('lockAccounts.noGateway')}
        </span>
      </span>
    </>
  );
}

function Battery({ percent }: { percent: number }) {
  const { t } = useTranslation();
  const Icon = percent <= 20 ? BatteryLow : percent <= 60 ? BatteryMedium : BatteryFull;
  const label = t('frontDesk.board.lockPowerValue', { power: percent });
  return (
    <span
      className={cn('inline-flex items-center gap-1 text-xs tabular-nums', percent <= 20 ? 'text-destructive font-medium' : 'text-muted-foreground')}
      title={label}
      data-testid="lock-battery"
    >
      <Icon className="size-4 shrink-0" aria-hidden />
      <span className="sr-only">{label}</span>
      <span aria-hidden>{formatNumber(percent)}%</span>
    </span>
  );
}
