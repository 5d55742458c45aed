import { describe, expect, it } from 'vitest';
import { AUDIT_ACTOR_TYPES as SHARED_ACTOR_TYPES, AUDIT_CHANNELS as SHARED_CHANNELS, LIMITS, ZAuditListInput } from '@console/shared';
import { AUDIT_ACTOR_TYPES, AUDIT_CHANNELS, auditLogSearchSchema } from './audit-log-search';

const read = (input: unknown) => auditLogSearchSchema['~standard'].validate(input);

describe('the audit log URL', () => {
  it('has the lists of packages/shared', () => {
    expect(AUDIT_ACTOR_TYPES).toEqual(SHARED_ACTOR_TYPES);
    expect(AUDIT_CHANNELS).toEqual(SHARED_CHANNELS);
  });

  it('reads an empty URL as the first page of every entry', () => {
    expect(read({})).toStrictEqual({ value: { page: 1, pageSize: LIMITS.pageSizeDefault } });
  });

  it('keeps the filters it holds, each one audit.list takes', () => {
    const search = {
      page: 2,
      pageSize: 50,
      actorType: 'job',
      actor: 'account:12',
      action: 'room.update',
      entityType: 'Room',
      entityId: '7',
      channel: 'legacy',
      from: '2027-03-01',
      to: '2027-03-02',
    };
    expect(read(search)).toStrictEqual({ value: search });
    const { actor: _, ...input } = search;
    expect(ZAuditListInput.safeParse({ ...input, actorAccountId: 12 }).success).toBe(true);
  });

  it('drops what it cannot take', () => {
    expect(
      read({
        page: 0,
        actorType: 'robot',
        actor: 'account:0',
        action: 'room%',
        entityType: 'Room;',
        entityId: 'a b',
        channel: 'fax',
        from: 'yesterday',
        other: 1,
      }),
    ).toStrictEqual({
      value: {
        page: 1,
        pageSize: LIMITS.pageSizeDefault,
        actorType: undefined,
        actor: undefined,
        action: undefined,
        entityType: undefined,
        entityId: undefined,
        channel: undefined,
        from: undefined,
      },
    });
  });
});
