import type { ReactNode } from 'react';
import { CreditCard, KeyRound, RefreshCw, ScanFace, ShieldAlert, type LucideIcon } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TDeliveryState } from '@console/shared';
import { DeliveryStatus, DeliveryStateBadge, ValidityRange } from '@/components/delivery-state-badge';
import { Button } from '@/components/ui/button';
import type { CredentialMove, GuestKeysRequest } from '@/lib/stay-keys';
import type { RouterOutputs } from '@/lib/trpc-types';

export type StayKeys = RouterOutputs['stay']['keys'];
type Card = StayKeys['cards'][number];

/** A card's state with its locks: a written card is on them once written (green "issued" only then); one sent over the air as its lock confirmed it. */
function cardState(card: Card): TDeliveryState {
  return card.grants[0]?.deliveryState ?? 'pending';
}

/**
 * What the guest holds, by kind: each code (in full), card and face with its validity and where it
 * stands with its lock; what a room change did with each code; a written card still ending at the old
 * check-out, with "write now"; and what the old room's lock was told to refuse.
 */
export function HeldKeys({
  data,
  request,
  moves,
  canManage,
  timeZone,
  onIssueGenerated,
  issuing,
  onRewrite,
}: {
  data: StayKeys;
  request: GuestKeysRequest;
  moves: CredentialMove[];
  canManage: boolean;
  timeZone: string;
  onIssueGenerated(): void;
  issuing: boolean;
  onRewrite(card: Card): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="grid gap-4" aria-live="polite">
      {data.passwords.length > 0 && (
        <KeySection id="guest-keys-codes" icon={KeyRound} title={t('guestKeys.codes')}>
          {data.passwords.map((p) => {
            const move = moves.find((m) => m.kind === 'password' && m.toId === p.id);
            const isRefused = p.deliveryState === 'failed' && p.lastError === 'duplicate_code';
            return (
              <li
                key={p.id}
                className="grid gap-1.5 rounded-md border p-3 text-sm sm:grid-cols-[1fr_auto]"
                data-testid={`guest-keys-password-${p.id}`}
                data-state={p.deliveryState}
              >
                <div className="grid gap-1">
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                    <span className="font-medium">{t(`credentials.kinds.${p.kind}`)}</span>
                    {p.code ? (
                      <span className="font-mono text-lg tracking-widest tabular-nums" dir="ltr" data-testid={`guest-keys-code-${p.id}`}>
                        {p.code}
                      </span>
                    ) : (
                      <span className="text-muted-foreground text-xs" data-testid={`guest-keys-code-${p.id}`}>
                        {p.deliveryState === 'pending' ? t('guestKeys.codePending') : '—'}
                      </span>
                    )}
                    <span className="text-muted-foreground truncate" dir="auto">
                      {p.holderName}
                    </span>
                  </div>
                  <span className="text-muted-foreground text-xs tabular-nums">
                    <ValidityRange from={p.validFrom} until={p.validUntil} timeZone={timeZone} />
                  </span>
                  {(move?.outcome === 'new_code' || (request.after !== 'room_change' && p.replacesId !== null)) && (
                    <span className="text-xs font-medium text-amber-800" data-testid={`guest-keys-password-${p.id}-new`}>
                      {t('guestKeys.newCode')}
                    </span>
                  )}
                  {move?.outcome === 'same_code' && (
                    <span className="text-muted-foreground text-xs">{t('guestKeys.sameCode', { from: request.fromRoomName ?? '' })}</span>
                  )}
                  {p.validityAdjusted && <span className="text-xs text-amber-800">{t('credentials.validityAdjusted')}</span>}
                  {p.backupCode && (
                    <span className="text-xs font-medium text-amber-800" data-testid={`guest-keys-password-${p.id}-backup`}>
                      {t('credentials.backupCode')}
                    </span>
                  )}
                </div>
                <div className="grid content-start gap-1.5 sm:justify-items-end">
                  <DeliveryStatus state={p.deliveryState} setting={p.setting} lastError={p.lastError} errorTestId={`guest-keys-password-${p.id}-error`} />
                  {isRefused && canManage && (
                    <Button
                      variant="outline"
                      size="sm"
                      className="h-7 px-2 text-xs"
                      onClick={onIssueGenerated}
                      disabled={issuing}
                      data-testid={`guest-keys-password-${p.id}-generated`}
                    >
                      <RefreshCw aria-hidden />
                      {t('guestKeys.issueGenerated')}
                    </Button>
                  )}
                </div>
              </li>
            );
          })}
        </KeySection>
      )}

      {data.cards.length > 0 && (
        <KeySection id="guest-keys-cards" icon={CreditCard} title={t('guestKeys.cards')}>
          {data.cards.map((card) => (
            <li
              key={card.id}
              className="grid gap-1.5 rounded-md border p-3 text-sm sm:grid-cols-[1fr_auto]"
              data-testid={`guest-keys-card-${card.cardNumber}`}
              data-rewrite={card.needsRewrite}
            >
              <div className="grid gap-1">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span className="font-medium tabular-nums [unicode-bidi:isolate]">{t('guestKeys.cardNumber', { number: card.cardNumber })}</span>
                  <span className="text-muted-foreground text-xs">{t(card.medium === 'number' ? 'guestKeys.overTheAir' : 'guestKeys.writtenCard')}</span>
                </div>
                <span className="text-muted-foreground text-xs tabular-nums">
                  <ValidityRange from={card.validFrom} until={card.validUntil} timeZone={timeZone} />
                </span>
              </div>
              <div className="grid content-start gap-1.5 sm:justify-items-end">
                {card.needsRewrite ? (
                  <>
                    <NeedsRewriting />
                    {canManage && (
                      <Button
                        variant="outline"
                        size="sm"
                        className="h-7 px-2 text-xs"
                        onClick={() => onRewrite(card)}
                        data-testid={`guest-keys-card-${card.cardNumber}-rewrite`}
                      >
                        <RefreshCw aria-hidden />
                        {t('guestKeys.writeNow')}
                      </Button>
                    )}
                  </>
                ) : (
                  <DeliveryStatus state={cardState(card)} lastError={card.grants[0]?.lastError ?? null} />
                )}
              </div>
            </li>
          ))}
        </KeySection>
      )}

      {data.faces.length > 0 && (
        <KeySection id="guest-keys-faces" icon={ScanFace} title={t('guestKeys.faces')}>
          {data.faces.map((f) => (
            <li
              key={f.id}
              className="grid gap-1.5 rounded-md border p-3 text-sm sm:grid-cols-[1fr_auto]"
              data-testid={`guest-keys-face-${f.id}`}
              data-state={f.deliveryState}
            >
              <div className="grid gap-1">
                <span className="font-medium" dir="auto">
                  {f.face.faceId} · {f.face.note}
                </span>
                <span className="text-muted-foreground text-xs tabular-nums">
                  <ValidityRange from={f.validFrom} until={f.validUntil} timeZone={timeZone} />
                </span>
              </div>
              <DeliveryStatus state={f.deliveryState} lastError={f.lastError} />
            </li>
          ))}
        </KeySection>
      )}

      {data.movedFrom && data.movedFrom.passwords.length + data.movedFrom.faces.length + data.movedFrom.cards.length > 0 && <TakenOff old={data.movedFrom} />}
    </div>
  );
}

/** "Needs rewriting": a written card still ending at the old check-out (never a green "issued"). */
function NeedsRewriting() {
  const { t } = useTranslation();
  return (
    <span
      className="inline-flex w-fit items-center gap-1.5 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900"
      data-testid="guest-keys-needs-rewrite"
      title={t('cards.needsRewrite')}
    >
      <ShieldAlert className="size-3" aria-hidden />
      {t('guestKeys.needsRewriting')}
    </span>
  );
}

/** What the old room's lock was told to refuse after a room change, as far as it got. */
function TakenOff({ old }: { old: NonNullable<StayKeys['movedFrom']> }) {
  const { t } = useTranslation();
  const rows = [
    ...old.passwords.map((p) => ({
      key: `p-${p.id}`,
      label: p.code ? t('guestKeys.what.code', { code: p.code }) : t(`credentials.kinds.${p.kind}`),
      state: p.deliveryState,
    })),
    ...old.faces.map((f) => ({ key: `f-${f.id}`, label: t('guestKeys.what.face', { face: f.face.faceId }), state: f.deliveryState })),
    ...old.cards.map((c) => ({
      key: `c-${c.id}`,
      label: t('guestKeys.what.card', { number: c.cardNumber }),
      state: c.grants[0]?.deliveryState ?? ('removed' as TDeliveryState),
    })),
  ];
  return (
    <section className="grid gap-2" aria-labelledby="guest-keys-taken-off" data-testid="guest-keys-taken-off">
      <h3 id="guest-keys-taken-off" className="text-muted-foreground text-xs font-medium">
        {t('guestKeys.takenOff', { room: old.roomName })}
      </h3>
      <ul className="flex flex-wrap gap-x-5 gap-y-2 text-sm">
        {rows.map((r) => (
          <li key={r.key} className="flex flex-wrap items-center gap-2" data-state={r.state}>
            <span dir="auto">{r.label}</span>
            <DeliveryStateBadge state={r.state} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One kind of what the guest holds (codes, cards, faces): its heading and its list. */
function KeySection({ id, icon: Icon, title, children }: { id: string; icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <section className="grid gap-2" aria-labelledby={id}>
      <h3 id={id} className="text-muted-foreground flex items-center gap-1.5 text-xs font-medium">
        <Icon className="size-3.5" aria-hidden />
        {title}
      </h3>
      <ul className="grid gap-2">{children}</ul>
    </section>
  );
}
