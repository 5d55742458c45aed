import { createHash, randomUUID, randomInt } from 'node:crypto';
import { localDate } from '@console/shared';
import { storePicture } from '../infra/uploads';
import { legacyTime } from '../legacy/manage/format';
import { createSession } from '../modules/auth/session.service';
import { sealSecret } from '../modules/webhooks/webhook.service';
import { createAccount, createCustomers, createHotelWithStaff, createRooms, hours, insertStay, uniqueMobile } from './factories';
import { testMeta, type TestContext } from './harness';
import { pngPhoto } from './photos';

/**
 * A provider lock id no other world has (unique across the database): a random 11-digit number
 * after `prefix`. The time in milliseconds met again when two files built worlds at once.
 */
const uniqueLockId = (prefix: string) => `${prefix}${String(randomInt(1e11)).padStart(11, '0')}`;

/**
 * A hotel with one of every record (rooms, a group, stays, guests, a password, a face, a template,
 * a dispenser, orders, staff), and a valid request for every legacy action and tRPC procedure
 * naming them: the bad-input test varies these requests, the permission matrix sends them as a
 * staff member without the rooms and as another hotel. A new action or procedure adds its example
 * here (both tests fail without one).
 */

async function staffMembers(ctx: TestContext, hotelId: number) {
  const member = async () => {
    const account = await createAccount(ctx.deps, { hotelId, role: 'staff' });
    return ctx.deps.prisma.membership.findUniqueOrThrow({ where: { accountId_hotelId: { accountId: account.id, hotelId } } });
  };
  return { staffTarget: await member(), legacyRemoveTarget: await member(), trpcRemoveTarget: await member() };
}

export async function buildWorld(ctx: TestContext) {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms, group } = await createRooms(ctx.deps, h.hotel.id, ['B101', 'B102', 'B103'], { groupName: 'Bad input' });
  const stay = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: rooms[0]!.id,
    checkInAt: hours(-2),
    expectedCheckOutAt: hours(30),
    guestName: 'Y-Primary',
    guestMobile: uniqueMobile(),
  });
  // Made by a property system through the JSON API with its own booking id (the Idempotency-Key it sent).
  await ctx.deps.prisma.stay.update({ where: { id: stay.id }, data: { idempotencyKey: WORLD_BOOKING_ID } });
  const co = await ctx.deps.prisma.stayGuest.create({ data: { hotelId: h.hotel.id, stayId: stay.id, name: 'Co guest' } });
  const primary = await ctx.deps.prisma.stayGuest.findFirstOrThrow({ where: { stayId: stay.id, isPrimary: true } });
  const reservation = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: rooms[1]!.id,
    checkInAt: hours(48),
    expectedCheckOutAt: hours(72),
    status: 'reserved',
  });
  const [customer] = await createCustomers(ctx.deps, h.hotel.id, 1, 'Bad');
  const template = await ctx.deps.prisma.priceTemplate.create({ data: { hotelId: h.hotel.id, name: 'Bad input template', usualPrice: 10_000 } });
  const legacySession = await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
  const password = await ctx.deps.prisma.lockPassword.create({
    data: {
      hotelId: h.hotel.id,
      roomId: rooms[0]!.id,
      stayId: stay.id,
      kind: 'custom',
      holderName: 'Y-Primary',
      code: '483920',
      validFrom: hours(-2),
      validUntil: hours(30),
      deliveryState: 'failed',
      lastError: 'lock_offline',
    },
  });
  // The password actions' own room, stay and password: the front-desk examples check `stay` out and move it.
  const {
    rooms: [pwRoom],
  } = await createRooms(ctx.deps, h.hotel.id, ['B104']);
  const pwStay = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: pwRoom!.id,
    checkInAt: hours(-2),
    expectedCheckOutAt: hours(50),
    guestName: 'Password guest',
    guestMobile: uniqueMobile(),
  });
  const pwPassword = await ctx.deps.prisma.lockPassword.create({
    data: {
      hotelId: h.hotel.id,
      roomId: pwRoom!.id,
      stayId: pwStay.id,
      kind: 'custom',
      holderName: 'Password guest',
      code: '619284',
      validFrom: hours(-2),
      validUntil: hours(50),
      deliveryState: 'on_lock',
    },
  });
  const photo = pngPhoto();
  const faceImage = (await storePicture(ctx.deps.files, h.hotel.id, photo))!.url;
  const face = await ctx.deps.prisma.face.create({
    data: { hotelId: h.hotel.id, faceId: 'BF-1', note: 'Bad input face', imageUrl: faceImage, imageSha256: createHash('sha256').update(photo).digest('hex') },
  });
  // Failed on the lock: the face cannot be deleted, the authorisation can be retried and deleted.
  const faceAuthorization = await ctx.deps.prisma.faceAuthorization.create({
    data: {
      hotelId: h.hotel.id,
      faceId: face.id,
      roomId: rooms[0]!.id,
      stayId: stay.id,
      validFrom: hours(-2),
      validUntil: hours(30),
      deliveryState: 'failed',
      lastError: 'lock_offline',
    },
  });
  // A desk card reader and a card dispenser of the hotel (issue 8 §3, §5).
  const cardReader = await ctx.deps.prisma.cardReader.create({ data: { hotelId: h.hotel.id, deviceId: 'SIM-BAD-INPUT-1', serial: 'SIMBAD1', readerType: 1 } });
  const dispenser = await ctx.deps.prisma.cardDispenser.create({ data: { hotelId: h.hotel.id, deviceId: 'SIM-BAD-INPUT-1', name: 'Bad input dispenser' } });
  // The orders ledger's own rooms, stays, folio, entries and customer (the front-desk examples end `stay`, `room/clientDelete` the customer).
  const {
    rooms: [orderRoom, settleRoom],
  } = await createRooms(ctx.deps, h.hotel.id, ['B105', 'B106']);
  const orderStay = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: orderRoom!.id,
    checkInAt: hours(-2),
    expectedCheckOutAt: hours(30),
    guestName: 'Order guest',
  });
  const settleStay = await insertStay(ctx.deps, {
    hotelId: h.hotel.id,
    roomId: settleRoom!.id,
    checkInAt: hours(-2),
    expectedCheckOutAt: hours(30),
    guestName: 'Settle guest',
  });
  const folio = await ctx.deps.prisma.folio.create({ data: { hotelId: h.hotel.id, stayId: orderStay.id, currency: 'CNY' } });
  const onFolio = { hotelId: h.hotel.id, currency: 'CNY', stayId: orderStay.id, roomId: orderRoom!.id, folioId: folio.id, createdByAccountId: h.owner.id };
  const orderPayment = await ctx.deps.prisma.orderEntry.create({ data: { ...onFolio, kind: 'payment', method: 'cash', amount: 50_000 } });
  const orderCharge = await ctx.deps.prisma.orderEntry.create({ data: { ...onFolio, kind: 'charge', amount: -1_000, note: 'Minibar' } });
  // An invoice of that bill (invoice.get, invoice.credit), written as the database takes it (the service invoices final bills only).
  const invoice = await ctx.deps.prisma.invoice.create({
    data: {
      hotelId: h.hotel.id,
      number: 0,
      kind: 'invoice',
      folioId: folio.id,
      language: 'en',
      currency: 'CNY',
      businessDate: localDate(new Date(), h.hotel.timeZone),
      total: 1_000,
      createdByAccountId: h.owner.id,
      document: {
        seller: { name: h.hotel.name, legalName: '', address: '', tel: '', taxId: '' },
        buyer: { name: 'Order guest', taxId: '', address: '' },
        stay: { roomName: orderRoom!.name, guestName: 'Order guest', arrival: hours(-2).toISOString(), departure: hours(30).toISOString() },
        lines: [{ date: localDate(new Date(), h.hotel.timeZone), description: 'Minibar', amount: 1_000, taxIncluded: null, tax: false }],
        taxes: [],
        payments: [],
        totals: { charges: 1_000, taxes: 0, paid: 0, due: 1_000 },
      },
    },
  });
  // The front desk's open cashier shift (order.shiftClose by the owner, order.shift).
  const shift = await ctx.deps.prisma.cashierShift.create({ data: { hotelId: h.hotel.id, accountId: h.staff.id, openingFloat: 10_000 } });
  const [orderCustomer] = await createCustomers(ctx.deps, h.hotel.id, 1, 'Orders');
  // Housekeeping (docs/housekeeping.md): an attendant, today's task of B103 (cleaned, awaiting inspection), a range out of order.
  const attendantAccount = await createAccount(ctx.deps, { hotelId: h.hotel.id, role: 'housekeeping' });
  const attendant = await ctx.deps.prisma.membership.findUniqueOrThrow({
    where: { accountId_hotelId: { accountId: attendantAccount.id, hotelId: h.hotel.id } },
  });
  const hkDay = new Date(`${localDate(new Date(), h.hotel.timeZone)}T00:00:00Z`);
  const hkTask = await ctx.deps.prisma.housekeepingTask.create({
    data: { hotelId: h.hotel.id, roomId: rooms[2]!.id, day: hkDay, kind: 'departure', status: 'done', assigneeId: attendant.id },
  });
  const outOfOrder = await ctx.deps.prisma.roomOutOfOrder.create({
    data: {
      hotelId: h.hotel.id,
      roomId: rooms[2]!.id,
      kind: 'out_of_order',
      startDate: new Date('2027-09-01'),
      endDate: new Date('2027-09-02'),
      reason: 'Paint',
    },
  });
  await ctx.deps.prisma.orderEntry.create({
    data: { hotelId: h.hotel.id, currency: 'CNY', kind: 'recharge', method: 'cash', amount: 10_000, customerId: orderCustomer!.id },
  });
  // A lock account of the hotel (not connected: no lock cloud here) with a lock of its own, no room's
  // door yet; and an account with no lock, for its removal.
  const lockAccount = await ctx.deps.prisma.lockAccount.create({
    data: { hotelId: h.hotel.id, provider: 'ttlock', username: 'bad-input-lock-account', state: 'disconnected' },
  });
  const spareLockAccount = await ctx.deps.prisma.lockAccount.create({
    data: { hotelId: h.hotel.id, provider: 'ttlock', username: 'bad-input-spare-account', state: 'disconnected' },
  });
  const lock = await ctx.deps.prisma.lock.create({
    data: {
      hotelId: h.hotel.id,
      accountId: lockAccount.id,
      provider: 'ttlock',
      providerLockId: uniqueLockId('9'),
      name: 'Bad input lock',
      alias: 'Bad input lock',
    },
  });
  // Shared doors (issue 20 §5): an entrance serving room Y and the group; a gym door to make plain again.
  const doorLock = await ctx.deps.prisma.lock.create({
    data: {
      hotelId: h.hotel.id,
      accountId: lockAccount.id,
      provider: 'ttlock',
      providerLockId: uniqueLockId('8'),
      name: 'Bad input door',
      sharedKind: 'entrance',
    },
  });
  await ctx.deps.prisma.sharedDoorServe.create({ data: { hotelId: h.hotel.id, lockId: doorLock.id, roomId: rooms[0]!.id } });
  const spareDoorLock = await ctx.deps.prisma.lock.create({
    data: {
      hotelId: h.hotel.id,
      accountId: lockAccount.id,
      provider: 'ttlock',
      providerLockId: uniqueLockId('7'),
      name: 'Bad input gym',
      sharedKind: 'gym',
    },
  });
  // A calendar feed of room Y (issue 20 §1) at an address nothing answers (port 9): its reads fail at once.
  const feed = await ctx.deps.prisma.calendarFeed.create({
    data: { hotelId: h.hotel.id, roomId: rooms[0]!.id, label: 'Bad input feed', url: 'http://127.0.0.1:9/bad-input.ics' },
  });
  // A webhook endpoint of the hotel with one test delivery in its log (docs/webhooks.md).
  const webhook = await ctx.deps.prisma.webhookEndpoint.create({
    data: { hotelId: h.hotel.id, url: 'https://pms.example.com/hooks', events: ['payment.recorded'], secret: '' },
  });
  await ctx.deps.prisma.webhookEndpoint.update({ where: { id: webhook.id }, data: { secret: sealSecret(ctx.deps, webhook, 'whsec_' + 'A'.repeat(32)) } });
  const webhookDelivery = await ctx.deps.prisma.webhookDelivery.create({
    data: {
      hotelId: h.hotel.id,
      endpointId: webhook.id,
      messageId: `msg_test_${randomUUID()}`,
      kind: 'webhook.test',
      occurredAt: new Date(),
      status: 'succeeded',
    },
  });
  const staffWorld = await staffMembers(ctx, h.hotel.id);
  return {
    ...h,
    ...staffWorld,
    feed,
    webhook,
    webhookDelivery,
    doorLock,
    spareDoorLock,
    lockAccount,
    spareLockAccount,
    lock,
    rooms,
    group: group!,
    stay,
    co,
    primary,
    reservation,
    customer: customer!,
    template,
    password,
    pwRoom: pwRoom!,
    pwStay,
    pwPassword,
    faceImage,
    face,
    faceAuthorization,
    cardReader,
    dispenser,
    orderStay,
    settleStay,
    orderPayment,
    orderCharge,
    invoice,
    orderCustomer: orderCustomer!,
    shift,
    attendant,
    hkTask,
    hkDay,
    outOfOrder,
    legacyToken: legacySession.token,
  };
}

export type World = Awaited<ReturnType<typeof buildWorld>>;
export type Example = (w: World) => Record<string, unknown> | undefined;

export const day = '2027-03-01';
const soon = () => hours(1).toISOString();
const later = () => hours(26).toISOString();
/** A legacy time `hours` from now in the hotel's zone. */
const local = (n: number) => legacyTime(hours(n), 'Asia/Shanghai')!;

/** A valid payload of every legacy action, in its own field names. */
export const LEGACY_EXAMPLES: Record<string, Example> = {
  captcha: () => ({}),
  login: () => ({ mobile: '13312340000', password: 'not-the-password', code: 'abcd', codeKey: 'k'.repeat(32) }),
  logout: () => ({}),
  'setting/updatePassword': () => ({ oldPassword: 'surely-wrong-1', newPassword: 'brand-new-2', confirmPassword: 'brand-new-2' }),
  'getBack/sendMsg': () => ({ mobile: '13312340001' }),
  'getBack/reset': () => ({ mobile: '13312340001', code: '000000', newPassword: 'brand-new-2', confirmPassword: 'brand-new-2' }),
  'room/clientList': () => ({ page: 1, limit: 20, keyword: 'a', status: 0 }),
  'room/clientDelete': (w) => ({ id: w.customer.id }),
  'room/listNew': (w) => ({ page: 1, limit: 20, status: 1, keyword: 'B', category_id: w.group.id, sort: 'a-z' }),
  'room/setRoomStatus': (w) => ({ room_id: w.rooms[2]!.id, status: 'dirty' }),
  'room/allLock': () => ({}),
  'room/lockInfo': (w) => ({ room_id: w.rooms[0]!.id }),
  'room/setLockData': (w) => ({ room_id: w.rooms[2]!.id, lock_id: 'LK', bluetooth_name: 'BT', mac_id: '00:11:22:33:44:55', lock_power: 50 }),
  'room/category/list': () => ({}),
  'room/addCategory': () => ({ name: `G-${randomUUID().slice(0, 6)}`, sort: 1 }),
  'room/change/category': (w) => ({ id: w.group.id, name: 'Bad input', sort: 2 }),
  'room/setPrice': (w) => ({
    room_id: w.rooms[2]!.id,
    price: 200,
    deposit: 50,
    weekend_price: 250,
    renewal_price: 180,
    date_prices: [{ date: day, price: 300 }],
  }),
  'room/countRoomPriceNew': (w) => ({ room_id: w.rooms[2]!.id, check_in_time: '2027-03-01 14:00:00', check_out_time: '2027-03-02 12:00:00', renew: 0 }),
  'room/tenant/list': (w) => ({ page: 1, limit: 20, state: 'all', start_date: '2027-01-01', end_date: '2027-12-31', room_id: w.rooms[0]!.id, keyword: 'P' }),
  'room/tenant/update/checkIn': (w) => ({
    room_id: w.rooms[0]!.id,
    check_in_time: '2027-03-01 14:00:00',
    check_out_time: '2027-03-02 12:00:00',
    time_unit: 'day',
    breakfast: 1,
    guests: [{ name: 'Bad Guest', gender: 'male', nationality: 'CN', birth: '1990-01-01', id_number: 'X1', mobile: '13312340002', email: 'g@example.com' }],
    disable_old_cards: 0,
    id_card_unlock: 0,
    price: 300,
    deposit: 100,
    other_information: 'note',
    request_id: randomUUID(),
    confirm: 0,
  }),
  'room/checkOut': (w) => ({ stay_id: w.stay.id }),
  'room/setRenew': (w) => ({ stay_id: w.stay.id, check_out_time: '2027-03-05 12:00:00', price: 200 }),
  'room/exchangeHouses': (w) => ({ stay_id: w.stay.id, room_id: w.rooms[2]!.id }),
  'room/reservation/add': (w) => ({
    room_id: w.rooms[2]!.id,
    check_in_time: local(200),
    check_out_time: local(224),
    time_unit: 'day',
    breakfast: 0,
    guests: [
      { name: 'Booked Guest', gender: 'female', nationality: 'CN', birth: '1990-01-01', id_number: 'R1', mobile: '13312340005', email: 'r@example.com' },
    ],
    price: 300,
    deposit: 100,
    pay_type: 'wechat',
    other_information: 'late arrival',
    request_id: randomUUID(),
  }),
  'room/reservation/list': () => ({ date: day }),
  'room/reservation/arrive': (w) => ({ stay_id: w.reservation.id, check_in_time: local(0), check_out_time: local(80), price: 300, confirm: 1 }),
  'room/reservation/cancel': (w) => ({ stay_id: w.reservation.id, reason: 'guest_request', note: 'called' }),
  'room/addPassenger': (w) => ({
    stay_id: w.stay.id,
    name: 'Added',
    gender: 'female',
    nationality: 'CN',
    birth: '1991-02-03',
    id_number: 'Y2',
    mobile: '13312340003',
    email: 'a@example.com',
  }),
  'room/deletePassenger': (w) => ({ stay_id: w.stay.id, manage_id: w.co.id }),
  'room/password': (w) => ({
    room_id: w.pwRoom.id,
    type: 'custom',
    password: '592718',
    tenant_id: w.pwStay.id,
    staff_id: w.staff.id,
    name: 'Guest',
    mobile: '13312340004',
    start_time: local(1),
    end_time: local(26),
  }),
  'room/addPassword': (w) => ({
    room_id: w.pwRoom.id,
    password: '607341',
    tenant_id: w.pwStay.id,
    staff_id: w.staff.id,
    name: 'Guest',
    mobile: '13312340004',
    start_time: local(1),
    end_time: local(26),
  }),
  'room/passwordList': (w) => ({ page: 1, limit: 20, room_id: w.pwRoom.id, tenant_id: w.pwStay.id }),
  'room/passwordHistory': (w) => ({ page: 1, limit: 20, room_id: w.pwRoom.id, tenant_id: w.pwStay.id }),
  'room/deletePassword': (w) => ({ password_id: w.pwPassword.id }),
  'room/openHistory': (w) => ({ page: 1, limit: 20, room_id: w.rooms[0]!.id, start_date: day, end_date: day }),
  'room/openHistoryByPeople': (w) => ({ page: 1, limit: 20, keyword: 'Li', credential: 'password:1', room_id: w.rooms[0]!.id, start_date: day, end_date: day }),
  'lock/checkHistory': (w) => ({ page: 1, limit: 20, room_id: w.rooms[0]!.id, start_date: day, end_date: day }),
  'lock/managerList': (w) => ({ room_id: w.rooms[0]!.id }),
  'lock/managerAddNew': (w) => ({ room_id: w.rooms[0]!.id, name: 'Locksmith', mobile: '13912345678' }),
  'lock/managerDelete': () => ({ id: 1 }),
  'lock/inLockList': (w) => ({ room_id: w.rooms[0]!.id }),
  'lock/messageList': (w) => ({ page: 1, limit: 20, room_id: w.rooms[0]!.id, unread: 0 }),
  'lock/deleteMessage': () => ({ id: 1 }),
  'room/callbackPassword': (w) => ({ password_id: w.pwPassword.id }),
  'room/tenant/limitPassword': (w) => ({ tenant_id: w.pwStay.id, end_time: local(40) }),
  'room/cardAdd': (w) => ({
    uid: '04A1B2C4',
    kind: 'room',
    tenant_id: w.pwStay.id,
    mode: 'duplicate',
    room_ids: [w.pwRoom.id],
    all: 0,
    start_time: local(1),
    end_time: local(26),
    note: 'Front desk',
  }),
  'room/addCardStepTwoNew': () => ({ card_id: 1, uid: '04A1B2C4', blocks: [{ block: 4, data: '00'.repeat(16) }], cancel: 0 }),
  'room/sendCard': (w) => ({
    card_num: '3506998853',
    tenant_id: w.pwStay.id,
    room_id: w.pwRoom.id,
    start_time: local(1),
    end_time: local(26),
    note: 'Over the air',
  }),
  'room/sendCardEncryption': (w) => ({
    card_num: '3506998854',
    kind: 'universal',
    room_ids: [w.pwRoom.id],
    start_time: local(1),
    end_time: local(26),
    note: 'Housekeeping',
  }),
  'room/cardEncryption': () => ({ name: 'Bad input keys', sector: 2 }),
  'room/cardEncryptionList': () => ({}),
  'room/deleteCardEncryption': () => ({ id: 1 }),
  'room/sendCardEncryptionSyntony': (w) => ({ room_ids: [w.pwRoom.id] }),
  'lock/noteCardList': (w) => ({ page: 1, limit: 20, room_id: w.pwRoom.id, lock_id: 'LK', tenant_id: w.pwStay.id, kind: 'room', scope: 'all', keyword: '7' }),
  'passenger/getRoomInfo': () => ({ card_num: '78031299' }),
  'passenger/deleteCardByCardId': () => ({ card_num: '78031299', card_id: 1 }),
  'room/hotelBreakFastList': () => ({ date: day }),
  'room/hotelBreakFast': (w) => ({ stay_id: w.stay.id, date: day, guests: 1, confirm: 0 }),
  'room/hotelInfo': (w) => ({ hotel_id: w.hotel.id }),
  'room/getHotelInfo': () => ({}),
  'room/setHotelInfo': (w) => ({
    hotel_id: w.hotel.id,
    name: 'Bad input hotel',
    address: '1 Input Road',
    tel: '+86 21 5555-0101',
    latitude: 31.2304,
    longitude: '121.4737',
  }),
  'room/setHotelData': (w) => ({
    hotel_id: w.hotel.id,
    name: 'Bad input hotel',
    time_zone: 'Asia/Shanghai',
    currency: 'CNY',
    check_in_time: '14:00',
    check_out_time: '12:00',
    no_show_time: '00:00',
  }),
  'priceTemplate/lists': () => ({}),
  'priceTemplate/info': (w) => ({ id: w.template.id }),
  'priceTemplate/add': (w) => ({
    id: w.template.id,
    name: 'Bad input template',
    price: 100,
    deposit: 0,
    weekend_price: 120,
    renewal_price: 90,
    date_prices: [{ date: day, price: 150 }],
  }),
  'priceTemplate/delete': (w) => ({ id: w.template.id }),
  'priceTemplate/setPriceTemplate': (w) => ({ template_id: w.template.id, room_ids: [w.rooms[2]!.id], category_id: w.group.id }),
  'user/freezeUser': (w) => ({ id: w.customer.id, status: 1 }),
  'user/apikey': () => ({ name: 'Bad input key', scope: ['room.read'], expire_time: '2099-01-01 12:00:00' }),
  'user/apiKeyList': () => ({ page: 1, limit: 20, all: 1 }),
  'user/apiKeyDel': () => ({ id: 1 }),
  'passenger/list': () => ({ page: 1, limit: 20, keyword: 'P', current: 1 }),
  'passenger/info': (w) => ({ id: w.primary.id }),
  'user/uploadTFaceImg': (w) => ({ face_id: `BF-${randomUUID().slice(0, 6)}`, note: 'Bad input face', image: w.faceImage, manage_id: w.primary.id }),
  'user/faceImgList': () => ({ page: 1, limit: 20, keyword: 'B' }),
  'user/updateFaceNote': (w) => ({ id: w.face.id, note: 'Bad input face' }),
  'user/deleteTFaceImg': (w) => ({ id: w.face.id }),
  'user/updateLockFaceNote': (w) => ({ id: w.faceAuthorization.id, note: 'door' }),
  'lock/empowerFace': (w) => ({
    face_img_id: w.face.id,
    room_id: w.rooms[2]!.id,
    note: 'door',
    start_time: '2027-03-01 14:00:00',
    end_time: '2027-03-02 12:00:00',
  }),
  'lock/empowerFaceList': (w) => ({ page: 1, limit: 20, face_img_id: w.face.id, room_id: w.rooms[0]!.id, stay_id: w.stay.id, scope: 'all' }),
  'lock/deleteEmpowerFace': (w) => ({ id: w.faceAuthorization.id }),
  'oss/token': () => ({}),
  'cardDispenser/add': () => ({ device_id: `SIM-BAD-${randomUUID().slice(0, 8)}`, name: 'Desk' }),
  'cardDispenser/lists': () => ({ page: 1, limit: 20 }),
  'cardDispenser/checkStatus': (w) => ({ id: w.dispenser.id, device_id: w.dispenser.deviceId, status: 'online', stock: 40, capacity: 100 }),
  'order/setCashData': (w) => ({ stay_id: w.orderStay.id, type: 'payment', amount: 100, pay_type: 'cash', note: 'Desk', request_id: randomUUID() }),
  'order/macMember': (w) => ({ customer_id: w.orderCustomer.id, mobile: w.orderCustomer.mobile }),
  'order/refund': (w) => ({ order_id: w.orderPayment.id, amount: 1, reason: 'Bad input', pay_type: 'cash', request_id: randomUUID() }),
  'order/recharge': (w) => ({
    customer_id: w.orderCustomer.id,
    mobile: w.orderCustomer.mobile,
    amount: 10,
    pay_type: 'cash',
    note: 'Top-up',
    request_id: randomUUID(),
  }),
  'order/orderList': (w) => ({
    page: 1,
    limit: 20,
    type: 'payment',
    pay_type: 'cash',
    stay_id: w.orderStay.id,
    room_id: w.orderPayment.roomId,
    customer_id: w.orderCustomer.id,
    operator_id: w.owner.id,
    start_date: day,
    end_date: day,
  }),
  'order/cash': (w) => ({ date: day, operator_id: w.owner.id }),
  'order/shiftOpen': () => ({ opening_float: 200 }),
  'order/shiftCurrent': () => ({}),
  'order/shiftClose': (w) => ({ shift_id: w.shift.id, counted: { cash: 100, wechat: -5.5 }, note: 'Counted' }),
  'order/shiftInfo': (w) => ({ shift_id: w.shift.id }),
  'order/shiftList': (w) => ({ page: 1, limit: 20, operator_id: w.owner.id, start_date: day, end_date: day }),
  'order/dayReport': () => ({ date: day }),
  'order/auditChecks': () => ({ date: day }),
  'order/closeDay': () => ({ date: '2026-01-01' }),
  'order/report': () => ({ start_date: day, end_date: day }),
  'room/staffList': () => ({ page: 1, limit: 20, keyword: 'B' }),
  'room/staffManageRoomList': (w) => ({ id: w.staffTarget.id }),
  'room/staffManageRoomList1': (w) => ({ id: w.staffTarget.id }),
  'room/addStaff': (w) => ({
    account: uniqueMobile(),
    name: 'Bad staff',
    gender: 'female',
    nationality: 'CN',
    birth: '1990-01-01',
    role: 'staff',
    all_room: 0,
    room_ids: [w.rooms[0]!.id],
    api_key_auth: 0,
  }),
  'room/addStaffManageLock': (w) => ({ id: w.staffTarget.id, all_room: 0, room_ids: [w.rooms[0]!.id] }),
  'room/deleteStaff': (w) => ({ id: w.legacyRemoveTarget.id }),
  'user/setManager': (w) => ({ id: w.staffTarget.id, role: 'admin', api_key_auth: 0 }),
};

const guest = { name: 'Bad Guest', gender: 'male', nationality: 'CN', birthDate: '1990-01-01', idNumber: 'X1', mobile: '13312340002', email: 'g@example.com' };

/** A valid input of every tRPC procedure (undefined: the procedure takes none). */
export const TRPC_EXAMPLES: Record<string, Example> = {
  'auth.captcha': () => undefined,
  'hotel.info': (w) => ({ hotelId: w.hotel.id }),
  'hotel.taxRules': () => undefined,
  'hotel.setTaxRule': () => ({ appliesTo: 'rooms', ratePercent: 6 }),
  'hotel.setCityTax': () => ({ amountPerNight: 250 }),
  'invoice.draft': (w) => ({ stayId: w.orderStay.id }),
  'invoice.issue': (w) => ({ stayId: w.orderStay.id, language: 'en', buyer: { name: 'Buyer' }, requestId: randomUUID() }),
  'invoice.credit': (w) => ({ invoiceId: w.invoice.id, reason: 'Wrong buyer', requestId: randomUUID() }),
  'invoice.get': (w) => ({ id: w.invoice.id }),
  'invoice.list': () => ({ page: 1, pageSize: 20 }),
  'invoice.details': () => undefined,
  'invoice.setDetails': () => ({ legalName: 'Bad Input Hotel Ltd', taxId: 'TAX-1' }),
  'guestMessage.templates': () => undefined,
  'guestMessage.template': () => ({ channel: 'email', language: 'en' }),
  'guestMessage.saveTemplate': () => ({ channel: 'email', language: 'en', subject: 'Room {{room}}', body: 'Dear {{guest}}, your code is {{code}}.' }),
  'guestMessage.resetTemplate': () => ({ channel: 'sms', language: 'en' }),
  'guestMessage.settings': () => undefined,
  'guestMessage.saveSettings': () => ({ language: 'en', senderName: 'Front desk', senderEmail: 'desk@example.com' }),
  'guestMessage.log': (w) => ({ stayId: w.stay.id }),
  'guestMessage.sendAgain': (w) => ({ stayId: w.stay.id, channel: 'sms' }),
  'account.profile': () => undefined,
  'account.updateNickname': () => ({ nickname: 'Bad input owner' }),
  'account.setAvatar': () => ({ avatar: null }),
  'account.changeEmail': () => ({ email: 'bad-input-owner@example.com', password: 'surely-wrong-1' }),
  'account.changeMobile': () => ({ mobile: '13312340009', password: 'surely-wrong-1' }),
  'account.sessions': () => undefined,
  'account.revokeSession': () => ({ sessionId: 2_000_000_000 }),
  'account.revokeOtherSessions': () => undefined,
  'hotel.update': (w) => ({
    hotelId: w.hotel.id,
    name: 'Bad input hotel',
    address: '1 Input Road',
    tel: '021-5555',
    latitude: 31.2304,
    longitude: 121.4737,
    timeZone: 'Asia/Shanghai',
    currency: 'CNY',
    checkInTime: '14:00',
    checkOutTime: '12:00',
    noShowTime: '00:00',
  }),
  'auth.login': () => ({ account: '13312340000', password: 'not-the-password', captchaId: 'k'.repeat(32), captchaCode: 'abcd' }),
  'auth.me': () => undefined,
  'auth.hotels': () => undefined,
  // The session's own hotel: a switch that changes nothing (another hotel's id is "not found").
  'auth.switchHotel': (w) => ({ hotelId: w.hotel.id }),
  'auth.logout': () => undefined,
  'auth.changePassword': () => ({ oldPassword: 'surely-wrong-1', newPassword: 'brand-new-2', confirmPassword: 'brand-new-2' }),
  'auth.sendResetCode': () => ({ mobile: '13312340001' }),
  'auth.resetPassword': () => ({ mobile: '13312340001', code: '000000', newPassword: 'brand-new-2', confirmPassword: 'brand-new-2' }),
  'customer.list': () => ({ page: 1, pageSize: 20, search: 'a', state: 'all', sort: 'newest' }),
  'customer.get': (w) => ({ id: w.customer.id }),
  'customer.setFrozen': (w) => ({ id: w.customer.id, frozen: true }),
  'customer.delete': (w) => ({ id: w.customer.id }),
  'room.list': (w) => ({ page: 1, pageSize: 20, status: 'vacant', search: 'B', groupId: w.group.id, sort: 'name_asc' }),
  'room.get': (w) => ({ id: w.rooms[0]!.id }),
  'room.create': (w) => ({
    name: `N-${randomUUID().slice(0, 6)}`,
    groupId: w.group.id,
    remarkName: 'r',
    description: 'd',
    lockNotice: 'l',
    notice: 'n',
    lockId: 'L',
    bluetoothName: 'B',
    macId: '00:11:22:33:44:55',
    sortOrder: 1,
  }),
  'room.update': (w) => ({ id: w.rooms[2]!.id, name: 'B103', groupId: w.group.id, remarkName: 'r', sortOrder: 3 }),
  'room.delete': (w) => ({ roomId: w.rooms[2]!.id }),
  'room.setStatus': (w) => ({ roomId: w.rooms[2]!.id, target: 'dirty' }),
  'room.setStatusMany': (w) => ({ roomIds: [w.rooms[2]!.id], target: 'clean' }),
  'room.setLock': (w) => ({ roomId: w.rooms[2]!.id, lockId: 'L', bluetoothName: 'B', macId: '00:11:22:33:44:55' }),
  'room.unlockRecords': (w) => ({ roomId: w.rooms[0]!.id, page: 1, pageSize: 20, from: '2027-01-01', to: '2027-01-31' }),
  'accessRule.get': (w) => ({ groupId: w.group.id }),
  'accessRule.list': () => undefined,
  'accessRule.set': (w) => ({
    groupId: w.group.id,
    enabled: false,
    deskReservations: false,
    issueDaysBefore: 1,
    minutesBeforeCheckIn: 60,
    minutesAfterCheckOut: 30,
    password: true,
    face: false,
    card: false,
    codeRule: 'phone_last4',
    phoneFallback: 'random',
    codeType: 'auto',
    autoCheckIn: false,
    offlineCodeMinutes: 120,
  }),
  'accessRule.reset': (w) => ({ groupId: w.group.id }),
  'roomGroup.list': () => undefined,
  'roomGroup.create': () => ({ name: `G-${randomUUID().slice(0, 6)}`, sort: 1 }),
  'roomGroup.update': (w) => ({ id: w.group.id, name: 'Bad input', sort: 2 }),
  'roomGroup.delete': (w) => ({ id: w.group.id }),
  'price.room': (w) => ({ roomId: w.rooms[2]!.id }),
  'price.setRoom': (w) => ({
    roomId: w.rooms[2]!.id,
    depositAmount: 5000,
    usualPrice: 20_000,
    weekendPrice: 25_000,
    renewalPrice: 18_000,
    datePrices: [{ date: day, price: 30_000 }],
  }),
  'price.quote': (w) => ({ roomId: w.rooms[2]!.id, checkInAt: soon(), expectedCheckOutAt: later(), kind: 'stay' }),
  'price.templates': () => undefined,
  'price.template': (w) => ({ id: w.template.id }),
  'price.saveTemplate': (w) => ({
    id: w.template.id,
    name: 'Bad input template',
    depositAmount: 0,
    usualPrice: 10_000,
    weekendPrice: 12_000,
    renewalPrice: 9_000,
    datePrices: [{ date: day, price: 15_000 }],
  }),
  'price.deleteTemplate': (w) => ({ id: w.template.id }),
  'price.applyTemplate': (w) => ({ templateId: w.template.id, roomIds: [w.rooms[2]!.id], groupId: w.group.id }),
  'stay.list': (w) => ({ page: 1, pageSize: 20, state: 'all', from: '2027-01-01', to: '2027-12-31', roomId: w.rooms[0]!.id, guest: 'P' }),
  'stay.get': (w) => ({ stayId: w.stay.id }),
  'stay.keys': (w) => ({ stayId: w.stay.id }),
  'stay.fixAccess': (w) => ({ stayId: w.reservation.id }),
  'stay.checkIn': (w) => ({
    roomId: w.rooms[0]!.id,
    checkInAt: soon(),
    expectedCheckOutAt: later(),
    lengthUnit: 'day',
    breakfast: true,
    guests: [guest],
    disableOldCards: false,
    idCardUnlock: false,
    priceMode: 'fixed',
    fixedPrice: 30_000,
    depositAmount: 10_000,
    depositMethod: 'cash',
    remark: 'note',
    idempotencyKey: randomUUID(),
    acknowledge: [],
  }),
  'stay.arrive': (w) => ({
    stayId: w.reservation.id,
    checkInAt: new Date().toISOString(),
    expectedCheckOutAt: hours(80).toISOString(),
    priceMode: 'computed',
    acknowledge: [],
  }),
  'stay.cancelReservation': (w) => ({ stayId: w.reservation.id, reason: 'other', note: 'changed plans' }),
  'stay.reserve': (w) => ({
    roomId: w.rooms[2]!.id,
    checkInAt: hours(200).toISOString(),
    expectedCheckOutAt: hours(224).toISOString(),
    lengthUnit: 'day',
    breakfast: false,
    guests: [guest],
    priceMode: 'fixed',
    fixedPrice: 30_000,
    depositAmount: 10_000,
    depositMethod: 'alipay',
    remark: 'note',
    idempotencyKey: randomUUID(),
  }),
  'stay.arrivals': () => ({ date: day }),
  'stay.checkOut': (w) => ({ stayId: w.stay.id }),
  'stay.renew': (w) => ({ stayId: w.stay.id, expectedCheckOutAt: hours(60).toISOString(), priceMode: 'fixed', fixedPrice: 20_000 }),
  'stay.changeRoom': (w) => ({ stayId: w.stay.id, targetRoomId: w.rooms[2]!.id }),
  'stay.reschedulePreview': (w) => ({
    stayId: w.reservation.id,
    checkInAt: hours(50).toISOString(),
    expectedCheckOutAt: hours(70).toISOString(),
    roomId: w.rooms[2]!.id,
  }),
  'stay.reschedule': (w) => ({
    stayId: w.reservation.id,
    checkInAt: hours(50).toISOString(),
    expectedCheckOutAt: hours(70).toISOString(),
    roomId: w.rooms[2]!.id,
  }),
  'stay.addGuest': (w) => ({ stayId: w.stay.id, guest }),
  'stay.removeGuest': (w) => ({ stayId: w.stay.id, guestId: w.co.id }),
  'stay.guest': (w) => ({ guestId: w.primary.id }),
  'stay.guests': () => ({ page: 1, pageSize: 20, search: 'P', currentOnly: true }),
  'stay.breakfast': () => ({ date: day }),
  'stay.serveBreakfast': (w) => ({ stayId: w.stay.id, date: day, guests: 1, acknowledge: [] }),
  'password.list': (w) => ({ page: 1, pageSize: 20, roomId: w.rooms[0]!.id, stayId: w.stay.id, scope: 'all' }),
  'password.get': (w) => ({ id: w.password.id }),
  'password.create': (w) => ({
    roomId: w.rooms[0]!.id,
    kind: 'custom',
    code: '592718',
    holderName: 'Guest',
    stayId: w.stay.id,
    validFrom: soon(),
    validUntil: later(),
  }),
  'password.revoke': (w) => ({ id: w.password.id, reason: 'called_back' }),
  'password.retry': (w) => ({ id: w.password.id }),
  'card.reserve': (w) => ({
    uid: '04A1B2C3',
    kind: 'room',
    stayId: w.stay.id,
    mode: 'duplicate',
    roomIds: [w.rooms[0]!.id],
    allRooms: false,
    validFrom: soon(),
    validUntil: later(),
    note: 'Front desk',
  }),
  'card.confirm': () => ({ issueId: 1, uid: '04A1B2C3', blocks: [{ block: 4, data: '00'.repeat(16) }] }),
  'card.voidReservation': () => ({ issueId: 1 }),
  // A card system's room card (Seam acs): the world's doors are TTLock's, so these are refused as not a card system's.
  'card.encoders': (w) => ({ roomId: w.rooms[0]!.id }),
  'card.encode': (w) => ({ stayId: w.stay.id, encoderId: 'acs-encoder-1' }),
  'card.send': (w) => ({
    cardNumber: '3506998852',
    kind: 'room',
    stayId: w.stay.id,
    roomIds: [w.rooms[0]!.id],
    validFrom: soon(),
    validUntil: later(),
    note: 'Over the air',
  }),
  'card.lookup': () => ({ cardNumber: '78031299' }),
  'card.return': () => ({ cardNumber: '78031299' }),
  'card.reportLost': () => ({ issueId: 1 }),
  'card.revoke': () => ({ issueId: 1 }),
  'card.list': (w) => ({ page: 1, pageSize: 20, kind: 'room', roomId: w.rooms[0]!.id, stayId: w.stay.id, scope: 'all', search: '7' }),
  'card.get': () => ({ issueId: 1 }),
  'card.roomFit': (w) => ({ roomIds: [w.rooms[0]!.id, w.rooms[1]!.id] }),
  'card.keySets': () => undefined,
  'card.createKeySet': () => ({ name: 'Bad input keys', sector: 2 }),
  'card.deleteKeySet': () => ({ id: 1 }),
  'card.syncKeys': (w) => ({ roomIds: [w.rooms[0]!.id] }),
  'card.keyStates': () => undefined,
  'card.doorKeyStates': () => undefined,
  'apiKey.create': () => ({ name: 'Bad input key', permissions: ['room.read'], expiresAt: later() }),
  'apiKey.list': () => ({ page: 1, pageSize: 20, all: true }),
  'apiKey.revoke': () => ({ id: 1 }),
  'face.list': () => ({ page: 1, pageSize: 20, search: 'B' }),
  'face.get': (w) => ({ id: w.face.id }),
  'face.ofGuest': (w) => ({ mobile: w.primary.mobile ?? uniqueMobile(), idNumber: 'BAD-INPUT-1' }),
  'face.create': (w) => ({ faceId: `BF-${randomUUID().slice(0, 6)}`, note: 'Bad input face', imageUrl: w.faceImage, guestId: w.primary.id }),
  'face.updateNote': (w) => ({ id: w.face.id, note: 'Bad input face' }),
  'face.delete': (w) => ({ id: w.face.id }),
  'face.authorize': (w) => ({ id: w.face.id, roomId: w.rooms[0]!.id, stayId: w.stay.id, note: 'door', validFrom: soon(), validUntil: later() }),
  'face.authorizations': (w) => ({ page: 1, pageSize: 20, id: w.face.id, roomId: w.rooms[0]!.id, stayId: w.stay.id, scope: 'all' }),
  'face.revokeAuthorization': (w) => ({ authorizationId: w.faceAuthorization.id }),
  'face.retryAuthorization': (w) => ({ authorizationId: w.faceAuthorization.id }),
  'face.updateAuthorizationNote': (w) => ({ authorizationId: w.faceAuthorization.id, note: 'door' }),
  'password.limit': (w) => ({ stayId: w.pwStay.id, validUntil: hours(45).toISOString() }),
  'lock.provider': () => undefined,
  'lock.list': (w) => ({ page: 1, pageSize: 20, accountId: w.lockAccount.id, filter: 'unpaired', search: 'Bad' }),
  'lock.suggestedPairs': () => undefined,
  'lock.pairableRooms': () => ({ search: 'B1' }),
  'lock.pair': (w) => ({ pairs: [{ roomId: w.rooms[2]!.id, lockId: w.lock.id }] }),
  'lockAccount.list': () => undefined,
  'lockAccount.connect': () => ({ username: 'bad-input-new-account', password: 'not-it', kind: 'ttlock', label: 'Bad input' }),
  'lockAccount.connectSeam': () => ({ apiKey: 'seam_not_a_key', label: 'Bad input' }),
  'lockAccount.reconnect': (w) => ({ accountId: w.lockAccount.id, password: 'not-it' }),
  'lockAccount.disconnect': (w) => ({ accountId: w.lockAccount.id }),
  'lockAccount.remove': (w) => ({ accountId: w.spareLockAccount.id }),
  'lockAccount.setBudget': (w) => ({ accountId: w.lockAccount.id, monthlyBudget: 5000 }),
  // The world's account is TTLock's: not found (a Seam account's webhook: seam-webhook.integration.test.ts).
  'lockAccount.setSeamWebhook': (w) => ({ accountId: w.lockAccount.id, secret: `whsec_${'A'.repeat(32)}` }),
  'lockAccount.seamLink': (w) => ({ accountId: w.lockAccount.id }),
  'lockAccount.seamLinkState': (w) => ({ accountId: w.lockAccount.id, linkId: 'cw_example' }),
  'lockAccount.importLocks': (w) => ({ accountId: w.lockAccount.id }),
  'lockAccount.setSettings': () => ({ cardNumberOrder: 'same' }),
  'lock.status': (w) => ({ roomId: w.rooms[0]!.id, refresh: false }),
  'lock.unlock': (w) => ({ roomId: w.rooms[0]!.id }),
  'lock.contents': (w) => ({ roomId: w.rooms[0]!.id }),
  'lock.removeUnmanaged': (w) => ({ roomId: w.rooms[0]!.id, kind: 'password', ref: '12' }),
  'lock.messages': (w) => ({ page: 1, pageSize: 20, roomId: w.rooms[0]!.id, unreadOnly: false }),
  'lock.unreadMessages': () => undefined,
  'lock.markMessagesRead': () => ({ ids: [1] }),
  'lock.deleteMessages': () => ({ ids: [1] }),
  'lock.recordsByPerson': (w) => ({ page: 1, pageSize: 20, person: 'Li', credential: 'password:1', roomId: w.rooms[0]!.id, from: day, to: day }),
  'lock.managers': (w) => ({ roomId: w.rooms[0]!.id }),
  'lock.addManager': (w) => ({ roomId: w.rooms[0]!.id, name: 'Locksmith', mobile: '13912345678' }),
  'lock.deleteManager': () => ({ id: 1 }),
  'password.staff': () => undefined,
  'reader.environment': () => undefined,
  'reader.list': () => undefined,
  'reader.mine': () => undefined,
  'reader.register': () => ({ deviceId: `SIM-BAD-${randomUUID().slice(0, 8)}`, serial: 'SIMBAD2', readerType: 2, name: 'Desk' }),
  'reader.rename': (w) => ({ id: w.cardReader.id, name: 'Desk 1' }),
  'reader.bind': (w) => ({ id: w.cardReader.id, accountId: w.staff.id }),
  'reader.unbind': (w) => ({ id: w.cardReader.id }),
  'reader.delete': (w) => ({ id: w.cardReader.id }),
  'dispenser.list': () => undefined,
  'dispenser.add': () => ({ deviceId: `SIM-BAD-${randomUUID().slice(0, 8)}`, name: 'Desk' }),
  'dispenser.rename': (w) => ({ id: w.dispenser.id, name: 'Desk 1' }),
  'dispenser.checkStatus': (w) => ({ id: w.dispenser.id, status: 'online', stock: 40, capacity: 100 }),
  'dispenser.delete': (w) => ({ id: w.dispenser.id }),
  'order.folio': (w) => ({ stayId: w.orderStay.id }),
  'order.postRoomCharge': (w) => ({ stayId: w.orderStay.id }),
  'order.recordCharge': (w) => ({ stayId: w.orderStay.id, amount: 100, note: 'Minibar', requestId: randomUUID() }),
  'order.recordDeposit': (w) => ({ stayId: w.orderStay.id, amount: 100, method: 'cash', note: 'Deposit', requestId: randomUUID() }),
  'order.recordPayment': (w) => ({ stayId: w.orderStay.id, amount: 100, method: 'wechat', note: 'Payment', requestId: randomUUID() }),
  'order.refund': (w) => ({ entryId: w.orderPayment.id, amount: 1, reason: 'Bad input', method: 'cash', requestId: randomUUID() }),
  'order.correct': (w) => ({ entryId: w.orderCharge.id, reason: 'Bad input' }),
  'order.settle': (w) => ({
    stayId: w.settleStay.id,
    checkOut: true,
    deposit: 'keep',
    depositReason: 'Damage',
    payment: { amount: 100, method: 'cash' },
    refundMethod: 'cash',
  }),
  'order.recharge': (w) => ({
    customerId: w.orderCustomer.id,
    mobile: w.orderCustomer.mobile,
    amount: 10,
    method: 'cash',
    note: 'Top-up',
    requestId: randomUUID(),
  }),
  'order.customerBalance': (w) => ({ customerId: w.orderCustomer.id, mobile: w.orderCustomer.mobile }),
  'order.list': (w) => ({
    page: 1,
    pageSize: 20,
    kinds: ['payment'],
    method: 'cash',
    stayId: w.orderStay.id,
    roomId: w.orderPayment.roomId,
    customerId: w.orderCustomer.id,
    operatorId: w.owner.id,
    from: day,
    to: day,
  }),
  'order.cashReport': (w) => ({ date: day, operatorId: w.owner.id }),
  'order.shiftOpen': () => ({ openingFloat: 20_000 }),
  'order.shiftCurrent': () => undefined,
  'order.shiftHandover': () => undefined,
  'order.shiftClose': (w) => ({ shiftId: w.shift.id, counted: { cash: 10_000 }, note: 'Counted' }),
  'order.shift': (w) => ({ shiftId: w.shift.id }),
  'order.shifts': (w) => ({ page: 1, pageSize: 20, operatorId: w.owner.id, from: day, to: day }),
  'order.dayReport': () => ({ date: day }),
  'order.auditChecks': () => ({ date: day }),
  'order.closeDay': () => ({ date: '2026-01-01' }),
  'order.reportRange': () => ({ from: day, to: day }),
  'order.trialBalance': () => ({ date: day }),
  // Its drill-down: the cash of the world's shift (hotel B gets "not found": the shift is hotel A's).
  'order.journalLines': (w) => ({ date: day, account: 'money', method: 'cash', shiftId: w.shift.id, page: 1, pageSize: 20 }),
  'order.accountCodes': () => undefined,
  'order.setAccountCodes': () => ({
    codes: [
      { key: 'guest', code: '1200' },
      { key: 'money.cash', code: '1010' },
    ],
  }),
  'audit.list': (w) => ({
    page: 1,
    pageSize: 20,
    actorType: 'account',
    actorAccountId: w.owner.id,
    action: 'room',
    entityType: 'Room',
    entityId: String(w.rooms[0]!.id),
    channel: 'console',
    from: day,
    to: day,
  }),
  'audit.actors': () => undefined,
  'today.get': () => undefined,
  // The search box: `B` is in hotel A's rooms (B101...), its lock and guests' names.
  'search.query': () => ({ text: 'B', limit: 10 }),
  // The week around now, which holds the world's stays.
  'housekeeping.day': () => ({ day }),
  'housekeeping.myRooms': () => ({ day }),
  'housekeeping.generate': () => ({ day }),
  'housekeeping.assign': (w) => ({ membershipId: w.attendant.id, roomIds: [w.rooms[2]!.id] }),
  'housekeeping.step': (w) => ({ taskId: w.hkTask.id, step: 'start' }),
  'housekeeping.inspect': (w) => ({ taskId: w.hkTask.id, pass: false, reason: 'Dust under the bed' }),
  'housekeeping.requestClean': (w) => ({ roomId: w.rooms[2]!.id }),
  'housekeeping.setShift': (w) => ({ membershipId: w.attendant.id, day: '2027-03-01', start: '08:00', end: '16:00' }),
  // The attendant's card of today (B103, her task): the audit test gives her a shift first.
  'housekeeping.reserveCard': (w) => ({ membershipId: w.attendant.id, day: w.hkDay.toISOString().slice(0, 10), uid: '04A1B2C3' }),
  'housekeeping.setSettings': () => ({ stayoverRule: 'every_n_days', stayoverEveryDays: 2, dayStart: '07:00' }),
  'housekeeping.outOfOrderList': () => ({ from: day }),
  'housekeeping.outOfOrderCreate': (w) => ({
    roomId: w.rooms[2]!.id,
    kind: 'out_of_order',
    startDate: '2027-10-01',
    endDate: '2027-10-03',
    reason: 'New carpet',
  }),
  'housekeeping.outOfOrderDelete': (w) => ({ id: w.outOfOrder.id }),
  'timeline.window': () => ({ from: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10), days: 7 }),
  'timeline.bars': (w) => ({ from: new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10), days: 7, roomIds: [w.rooms[0]!.id, w.rooms[1]!.id] }),
  'export.start': () => ({ list: 'rooms', filters: { status: 'vacant', search: 'B10' }, scope: 'all', page: 1, pageSize: 20, fileName: 'Rooms' }),
  'export.status': () => ({ id: 'exp-00000000-0000-4000-8000-000000000000' }),
  'export.list': () => undefined,
  'staff.list': () => ({ page: 1, pageSize: 20, search: 'B' }),
  'staff.get': (w) => ({ id: w.staffTarget.id }),
  'staff.roomChoices': (w) => ({ id: w.staffTarget.id }),
  'staff.add': (w) => ({
    account: uniqueMobile(),
    name: 'Bad staff',
    gender: 'male',
    nationality: 'CN',
    birthDate: '1990-01-01',
    role: 'staff',
    allRooms: false,
    roomIds: [w.rooms[0]!.id],
    apiKeyAuth: false,
  }),
  'staff.setRole': (w) => ({ id: w.staffTarget.id, role: 'admin' }),
  'staff.setProfile': (w) => ({ id: w.staffTarget.id, name: 'Bad staff', gender: 'female', nationality: 'CN', birthDate: '1990-01-01' }),
  'staff.setRooms': (w) => ({ id: w.staffTarget.id, allRooms: false, roomIds: [w.rooms[0]!.id] }),
  'staff.setApiKeyAuth': (w) => ({ id: w.staffTarget.id, apiKeyAuth: true }),
  'staff.setFrozen': (w) => ({ id: w.staffTarget.id, frozen: true }),
  'staff.remove': (w) => ({ id: w.trpcRemoveTarget.id }),
  'sharedDoor.list': () => undefined,
  'sharedDoor.get': (w) => ({ lockId: w.doorLock.id }),
  'sharedDoor.set': (w) => ({ lockId: w.doorLock.id, kind: 'entrance', roomIds: [w.rooms[0]!.id], groupIds: [w.group.id] }),
  'sharedDoor.unset': (w) => ({ lockId: w.spareDoorLock.id }),
  'sharedDoor.ofStay': (w) => ({ stayId: w.stay.id }),
  'feed.list': (w) => ({ roomId: w.rooms[0]!.id }),
  'feed.add': (w) => ({ roomId: w.rooms[0]!.id, label: 'Airbnb', url: 'http://127.0.0.1:9/add.ics', everyMinutes: 30 }),
  'feed.edit': (w) => ({ feedId: w.feed.id, label: 'Booking.com', url: 'https://example.com/edit.ics', everyMinutes: 60 }),
  'feed.delete': (w) => ({ feedId: w.feed.id, confirm: true }),
  'feed.readNow': (w) => ({ feedId: w.feed.id }),
  'feed.confirmEmpty': (w) => ({ feedId: w.feed.id }),
  'feed.exportUrl': (w) => ({ roomId: w.rooms[0]!.id }),
  'feed.regenerateExport': (w) => ({ roomId: w.rooms[0]!.id }),
  'event.feed': () => ({ lastEventId: '1' }),
  'keyPage.view': () => ({ token: 'A'.repeat(43) }),
  'keyPage.open': () => ({ token: 'A'.repeat(43), door: 'room' }),
  'keyPage.get': (w) => ({ stayId: w.stay.id }),
  'keyPage.regenerate': (w) => ({ stayId: w.stay.id }),
  'keyPage.revoke': (w) => ({ stayId: w.stay.id }),
  'webhooks.list': () => undefined,
  'webhooks.create': () => ({ url: 'https://pms.example.com/hooks/new', events: ['reservation.created', 'credential.on_lock'], description: 'PMS' }),
  'webhooks.update': (w) => ({ id: w.webhook.id, description: 'Channel manager', events: ['stay.checked_in'] }),
  'webhooks.delete': (w) => ({ id: w.webhook.id }),
  'webhooks.rotateSecret': (w) => ({ id: w.webhook.id }),
  'webhooks.deliveries': (w) => ({ id: w.webhook.id }),
  'webhooks.resend': (w) => ({ id: w.webhook.id, deliveryId: String(w.webhookDelivery.id) }),
  'webhooks.sendTest': (w) => ({ id: w.webhook.id }),
};

/** A request of the JSON API (`/api/v1`): its path parameters, query and body. */
export interface ApiExample {
  params?: Record<string, string | number>;
  query?: Record<string, string | number>;
  body?: Record<string, unknown>;
}

/** The caller's own booking id of the world's stay (`GET /stays/by-external-id/{externalId}`). */
export const WORLD_BOOKING_ID = 'bad-input-booking-1';

/**
 * A valid request of every JSON API operation (http/api/routes.ts, by operationId), naming the
 * world's records: the bad-input test varies it, the permission matrix sends it with another
 * hotel's key, a key without the operation's scope, an expired and a revoked key, and twice with
 * one Idempotency-Key. A new operation adds its example here (both tests fail without one).
 */
export const API_EXAMPLES: Record<string, (w: World) => ApiExample> = {
  getHotel: () => ({}),
  listGuests: () => ({ query: { search: 'P', currentOnly: 'true', limit: 20 } }),
  getGuest: (w) => ({ params: { guestId: w.primary.id } }),
  listRooms: (w) => ({ query: { limit: 20, search: 'B', groupId: w.group.id, sort: 'default' } }),
  getRoom: (w) => ({ params: { roomId: w.rooms[0]!.id } }),
  listRoomGroups: () => ({}),
  listStays: (w) => ({ query: { limit: 20, state: 'all', from: '2027-01-01', to: '2027-12-31', roomId: w.rooms[0]!.id, guest: 'P' } }),
  getStay: (w) => ({ params: { stayId: w.stay.id } }),
  getStayByExternalId: () => ({ params: { externalId: WORLD_BOOKING_ID } }),
  createReservation: (w) => ({
    body: {
      roomId: w.rooms[2]!.id,
      checkInAt: hours(300).toISOString(),
      expectedCheckOutAt: hours(324).toISOString(),
      guests: [guest],
      priceMode: 'fixed',
      fixedPrice: 30_000,
      remark: 'note',
    },
  }),
  checkInWalkIn: (w) => ({ body: { roomId: w.rooms[2]!.id, checkInAt: soon(), expectedCheckOutAt: later(), guests: [guest], remark: 'note' } }),
  addGuest: (w) => ({ params: { stayId: w.stay.id }, body: guest }),
  removeGuest: (w) => ({ params: { stayId: w.stay.id, guestId: w.co.id } }),
  cancelReservation: (w) => ({ params: { stayId: w.reservation.id }, body: { reason: 'other', note: 'changed plans' } }),
  checkInReservation: (w) => ({ params: { stayId: w.reservation.id }, body: { expectedCheckOutAt: hours(80).toISOString(), priceMode: 'computed' } }),
  checkOut: (w) => ({ params: { stayId: w.stay.id } }),
  changeStayDates: (w) => ({ params: { stayId: w.stay.id }, body: { expectedCheckOutAt: hours(60).toISOString(), priceMode: 'fixed', fixedPrice: 20_000 } }),
  changeStayRoom: (w) => ({ params: { stayId: w.stay.id }, body: { targetRoomId: w.rooms[2]!.id } }),
  listStayCredentials: (w) => ({ params: { stayId: w.stay.id } }),
  issueStayCode: (w) => ({ params: { stayId: w.pwStay.id }, body: { kind: 'custom', code: '592719', validFrom: soon(), validUntil: later() } }),
  withdrawCode: (w) => ({ params: { codeId: w.password.id } }),
  issueStayCard: (w) => ({ params: { stayId: w.stay.id }, body: { cardNumber: '3506998853', note: 'Over the air' } }),
  withdrawCard: () => ({ params: { cardId: 1 } }),
  listFaces: () => ({ query: { search: 'B', limit: 20 } }),
  issueStayFace: (w) => ({ params: { stayId: w.pwStay.id }, body: { faceId: w.face.id, note: 'door' } }),
  withdrawFace: (w) => ({ params: { authorizationId: w.faceAuthorization.id } }),
  getFolio: (w) => ({ params: { stayId: w.orderStay.id } }),
  recordPayment: (w) => ({ params: { stayId: w.orderStay.id }, body: { amount: 100, method: 'wechat', note: 'Payment' } }),
  listStayInvoices: (w) => ({ params: { stayId: w.orderStay.id }, query: { limit: 20 } }),
  issueInvoice: (w) => ({ params: { stayId: w.orderStay.id }, body: { language: 'en', buyer: { name: 'Buyer', taxId: 'T-1' } } }),
  getInvoice: (w) => ({ params: { invoiceId: w.invoice.id } }),
  getInvoicePdf: (w) => ({ params: { invoiceId: w.invoice.id } }),
  creditInvoice: (w) => ({ params: { invoiceId: w.invoice.id }, body: { reason: 'Wrong buyer' } }),
  listLocks: (w) => ({ query: { limit: 20, accountId: w.lockAccount.id, filter: 'all', search: 'Bad' } }),
  getLock: (w) => ({ params: { lockId: w.lock.id } }),
  getRoomLock: (w) => ({ params: { roomId: w.rooms[0]!.id } }),
  listUnlockRecords: (w) => ({ query: { limit: 20, roomId: w.rooms[0]!.id, person: 'P', from: '2027-01-01', to: '2027-12-31' } }),
  upsertReservationByExternalId: (w) => ({
    params: { externalId: 'bad-input-booking-2' },
    body: { roomId: w.rooms[2]!.id, checkInAt: hours(400).toISOString(), expectedCheckOutAt: hours(424).toISOString(), guests: [guest] },
  }),
  rescheduleReservation: (w) => ({ params: { stayId: w.reservation.id }, body: { expectedCheckOutAt: hours(90).toISOString(), roomId: w.rooms[2]!.id } }),
  listWebhooks: () => ({}),
  createWebhook: () => ({ body: { url: 'https://pms.example.com/hooks/2', description: 'PMS', events: ['payment.recorded'] } }),
  updateWebhook: (w) => ({ params: { webhookId: w.webhook.id }, body: { description: 'PMS 2', enabled: true } }),
  deleteWebhook: (w) => ({ params: { webhookId: w.webhook.id } }),
  rotateWebhookSecret: (w) => ({ params: { webhookId: w.webhook.id } }),
  listWebhookDeliveries: (w) => ({ params: { webhookId: w.webhook.id } }),
  resendWebhookDelivery: (w) => ({ params: { webhookId: w.webhook.id, deliveryId: String(w.webhookDelivery.id) } }),
  sendWebhookTest: (w) => ({ params: { webhookId: w.webhook.id } }),
};
