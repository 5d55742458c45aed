import { BatteryFull, BatteryLow, BatteryMedium, CreditCard, DoorOpen, Grid3x3, Nfc, Router, ScanFace, Wifi, WifiOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import type { HotelLock } from './lock-accounts';

/** What the keypad takes: both kinds of password, or only one (a Seam keypad often takes one kind). */
function keypadLabel({ onlinePasscodes, offlinePasscodes }: HotelLock['capabilities']): string {
  if (onlinePasscodes && !offlinePasscodes) return 'lockAccounts.features.keypadCustomOnly';
  if (offlinePasscodes && !onlinePasscodes) return 'lockAccounts.features.keypadAirOnly';
  return 'lockAccounts.features.keypad';
}

/** Keypad (and which passwords it takes), card reader, face module, remote unlock, a card system's cards: small icons, each named for screen readers and on hover. */
export function Features({ lock }: { lock: HotelLock }) {
  const { t } = useTranslation();
  const c = lock.capabilities;
  const features = [
    { key: 'keypad', label: keypadLabel(c), has: c.keypad, Icon: Grid3x3 },
    { key: 'cardReader', label: 'lockAccounts.features.cardReader', has: c.cardReader, Icon: Nfc },
    { key: 'faceModule', label: 'lockAccounts.features.faceModule', has: c.faceModule, Icon: ScanFace },
    { key: 'remoteUnlock', label: 'locks.unlock', has: c.remoteUnlock, Icon: DoorOpen },
    { key: 'encodedCards', label: 'lockAccounts.features.encodedCards', has: c.encodedCards, Icon: CreditCard },
  ].filter((f) => f.has);
  if (features.length === 0) return <span className="text-muted-foreground text-xs">{t('lockAccounts.features.none')}</span>;
  return (
    <ul className="flex items-center gap-1.5" aria-label={t('lockAccounts.columns.features')} data-testid="lock-features">
      {features.map(({ key, label, Icon }) => (
        <li key={key} className="bg-muted flex size-7 items-center justify-center rounded-md" title={t(label)} data-feature={key}>
          <Icon className="size-4" aria-hidden />
          <span className="sr-only">{t(label)}</span>
        </li>
      ))}
    </ul>
  );
}

/** Battery, online or not, and the gateway it is heard through, as the lock cloud last said. */
export function LockState({ lock }: { lock: HotelLock }) {
  const { t } = useTranslation();
  // A card system's door reports nothing of itself (docs/seam.md "Card systems").
  if (lock.capabilities.encodedCards)
    return (
      <span className="text-muted-foreground text-xs" data-testid="lock-online">
        {t('locks.noStatus')}
      </span>
    );
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
