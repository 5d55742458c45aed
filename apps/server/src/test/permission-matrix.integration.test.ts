import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storePicture } from '../infra/uploads';
import { legacyTime } from '../legacy/manage/format';
import { LEGACY_ACTIONS } from '../legacy/manage/registry';
import { createSession } from '../modules/auth/session.service';
import { createCardKeySet } from '../modules/cards/card-keys.service';
import { appRouter } from '../trpc/router';
import { createAccount, createCustomers, createHotel, createHotelWithStaff, createRooms, hours, insertStay, uniqueMobile } from './factories';
import { gatewayClient } from './gateway-client';
import { actorContext, createTestContext, testMeta, type TestContext } from './harness';
import { legacyClient } from './legacy-client';
import { pngPhoto } from './photos';
import { trpcClient } from './trpc-client';

/**
 * The permission matrix (issue 9 §1 and §7): for EVERY tRPC procedure and EVERY legacy action, what
 * a staff member limited to room X gets when the request names hotel A's other rooms and what
 * hangs on them (room Y: stays, guests, passwords, faces' authorisations, cards, orders, records),
 * and what hotel B's owner gets for the same request. Each row names the outcome: "not found",
 * "no permission", or "allowed" (then the answer must show nothing of room Y, resp. hotel A).
 * A procedure or action without a row fails the test; rows not written yet are listed in PENDING,
 * which the test reports.
 *
 * The card-service gateway has no registry: its three card calls are checked below the matrix.
 * PERMISSION_MATRIX_DISCOVER=1 prints what each row gets instead of checking it (to write new rows).
 *
 * The requests are the valid examples of the bad-input test (test/bad-input.integration.test.ts),
 * against a copy of its hotel; the limited staff member has one room of its own (X), none of those.
 */

let ctx: TestContext;
let legacy: ReturnType<typeof legacyClient>;
let api: ReturnType<typeof trpcClient>;
let world: Awaited<ReturnType<typeof buildWorld>>;

/** Members of the hotel for the staff examples: one to change, one for each face to remove. */
async function staffMembers(hotelId: number) {
  const member = async () => {
    const account = await createAccount(ctx.deps, { hotelId, role: 'staff' });
    return ctx.deps.prisma.membership.findUniqueOrThrow({ where: { accountId_hotelId: { accountId: account.id, hotelId } } });
  };
  return { staffTarget: await member(), legacyRemoveTarget: await member(), trpcRemoveTarget: await member() };
}

async function buildWorld() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms, group } = await createRooms(ctx.deps, h.hotel.id, ['B101', 'B102', 'B103'], { groupName: 'Bad input' });
  const stay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: rooms[0]!.id, checkInAt: hours(-2), expectedCheckOutAt: hours(30), guestName: 'Y-Primary', guestMobile: uniqueMobile() });
  const co = await ctx.deps.prisma.stayGuest.create({ data: { hotelId: h.hotel.id, stayId: stay.id, name: 'Co guest' } });
  const primary = await ctx.deps.prisma.stayGuest.findFirstOrThrow({ where: { stayId: stay.id, isPrimary: true } });
  const reservation = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: rooms[1]!.id, checkInAt: hours(48), expectedCheckOutAt: hours(72), status: 'reserved' });
  const [customer] = await createCustomers(ctx.deps, h.hotel.id, 1, 'Bad');
  const template = await ctx.deps.prisma.priceTemplate.create({ data: { hotelId: h.hotel.id, name: 'Bad input template', usualPrice: 10_000 } });
  const legacySession = await createSession(ctx.deps, { accountId: h.owner.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() });
  const password = await ctx.deps.prisma.lockPassword.create({ data: { hotelId: h.hotel.id, roomId: rooms[0]!.id, stayId: stay.id, kind: 'custom', holderName: 'Y-Primary', code: '483920', validFrom: hours(-2), validUntil: hours(30), deliveryState: 'failed', lastError: 'lock_offline' } });
  // The password actions' own room, stay and password: the front-desk examples check `stay` out and move it.
  const { rooms: [pwRoom] } = await createRooms(ctx.deps, h.hotel.id, ['B104']);
  const pwStay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: pwRoom!.id, checkInAt: hours(-2), expectedCheckOutAt: hours(50), guestName: 'Password guest', guestMobile: uniqueMobile() });
  const pwPassword = await ctx.deps.prisma.lockPassword.create({ data: { hotelId: h.hotel.id, roomId: pwRoom!.id, stayId: pwStay.id, kind: 'custom', holderName: 'Password guest', code: '619284', validFrom: hours(-2), validUntil: hours(50), deliveryState: 'on_lock' } });
  const photo = pngPhoto();
  const faceImage = (await storePicture(path.resolve(ctx.config.uploadDir), h.hotel.id, photo))!.url;
  const face = await ctx.deps.prisma.face.create({ data: { hotelId: h.hotel.id, faceId: 'BF-1', note: 'Bad input face', imageUrl: faceImage, imageSha256: createHash('sha256').update(photo).digest('hex') } });
  // Failed on the lock: the face cannot be deleted, the authorisation can be retried and deleted.
  const faceAuthorization = await ctx.deps.prisma.faceAuthorization.create({ data: { hotelId: h.hotel.id, faceId: face.id, roomId: rooms[0]!.id, stayId: stay.id, validFrom: hours(-2), validUntil: hours(30), deliveryState: 'failed', lastError: 'lock_offline' } });
  // A desk card reader and a card dispenser of the hotel (issue 8 §3, §5).
  const cardReader = await ctx.deps.prisma.cardReader.create({ data: { hotelId: h.hotel.id, deviceId: 'SIM-BAD-INPUT-1', serial: 'SIMBAD1', readerType: 1 } });
  const dispenser = await ctx.deps.prisma.cardDispenser.create({ data: { hotelId: h.hotel.id, deviceId: 'SIM-BAD-INPUT-1', name: 'Bad input dispenser' } });
  // The orders ledger's own rooms, stays, folio, entries and customer (the front-desk examples end `stay`, `room/clientDelete` the customer).
  const { rooms: [orderRoom, settleRoom] } = await createRooms(ctx.deps, h.hotel.id, ['B105', 'B106']);
  const orderStay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: orderRoom!.id, checkInAt: hours(-2), expectedCheckOutAt: hours(30), guestName: 'Order guest' });
  const settleStay = await insertStay(ctx.deps, { hotelId: h.hotel.id, roomId: settleRoom!.id, checkInAt: hours(-2), expectedCheckOutAt: hours(30), guestName: 'Settle guest' });
  const folio = await ctx.deps.prisma.folio.create({ data: { hotelId: h.hotel.id, stayId: orderStay.id, currency: 'CNY' } });
  const onFolio = { hotelId: h.hotel.id, currency: 'CNY', stayId: orderStay.id, roomId: orderRoom!.id, folioId: folio.id, createdByAccountId: h.owner.id };
  const orderPayment = await ctx.deps.prisma.orderEntry.create({ data: { ...onFolio, kind: 'payment', method: 'cash', amount: 50_000 } });
  const orderCharge = await ctx.deps.prisma.orderEntry.create({ data: { ...onFolio, kind: 'charge', amount: -1_000, note: 'Minibar' } });
  const [orderCustomer] = await createCustomers(ctx.deps, h.hotel.id, 1, 'Orders');
  await ctx.deps.prisma.orderEntry.create({ data: { hotelId: h.hotel.id, currency: 'CNY', kind: 'recharge', method: 'cash', amount: 10_000, customerId: orderCustomer!.id } });
  const staffWorld = await staffMembers(h.hotel.id);
  return { ...h, ...staffWorld, rooms, group: group!, stay, co, primary, reservation, customer: customer!, template, password, pwRoom: pwRoom!, pwStay, pwPassword, faceImage, face, faceAuthorization, cardReader, dispenser, orderStay, settleStay, orderPayment, orderCharge, orderCustomer: orderCustomer!, legacyToken: legacySession.token };
}

type World = typeof world;
type Example = (w: World) => Record<string, unknown> | undefined;

const day = '2027-03-01';
const soon = () => hours(1).toISOString();
const later = () => hours(26).toISOString();
/** A legacy time `hours` from now in the hotel's zone. */
const local = (n: number) => legacyTime(hours(n), 'Asia/Shanghai')!;

/** A valid payload of every legacy action, in its own field names. */
const LEGACY_EXAMPLES: Record<string, Example> = {
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
  'room/setPrice': (w) => ({ room_id: w.rooms[2]!.id, price: 200, deposit: 50, weekend_price: 250, renewal_price: 180, date_prices: [{ date: day, price: 300 }] }),
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
  'room/addPassenger': (w) => ({ stay_id: w.stay.id, name: 'Added', gender: 'female', nationality: 'CN', birth: '1991-02-03', id_number: 'Y2', mobile: '13312340003', email: 'a@example.com' }),
  'room/deletePassenger': (w) => ({ stay_id: w.stay.id, manage_id: w.co.id }),
  'room/password': (w) => ({ room_id: w.pwRoom.id, type: 'custom', password: '592718', tenant_id: w.pwStay.id, staff_id: w.staff.id, name: 'Guest', mobile: '13312340004', start_time: local(1), end_time: local(26) }),
  'room/addPassword': (w) => ({ room_id: w.pwRoom.id, password: '607341', tenant_id: w.pwStay.id, staff_id: w.staff.id, name: 'Guest', mobile: '13312340004', start_time: local(1), end_time: local(26) }),
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
  'room/cardAdd': (w) => ({ uid: '04A1B2C4', kind: 'room', tenant_id: w.pwStay.id, mode: 'duplicate', room_ids: [w.pwRoom.id], all: 0, start_time: local(1), end_time: local(26), note: 'Front desk' }),
  'room/addCardStepTwoNew': () => ({ card_id: 1, uid: '04A1B2C4', blocks: [{ block: 4, data: '00'.repeat(16) }], cancel: 0 }),
  'room/sendCard': (w) => ({ card_num: '3506998853', tenant_id: w.pwStay.id, room_id: w.pwRoom.id, start_time: local(1), end_time: local(26), note: 'Over the air' }),
  'room/sendCardEncryption': (w) => ({ card_num: '3506998854', kind: 'universal', room_ids: [w.pwRoom.id], start_time: local(1), end_time: local(26), note: 'Housekeeping' }),
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
  'room/setHotelInfo': (w) => ({ hotel_id: w.hotel.id, name: 'Bad input hotel', address: '1 Input Road', tel: '+86 21 5555-0101', latitude: 31.2304, longitude: '121.4737' }),
  'room/setHotelData': (w) => ({ hotel_id: w.hotel.id, name: 'Bad input hotel', time_zone: 'Asia/Shanghai', currency: 'CNY', check_in_time: '14:00', check_out_time: '12:00' }),
  'priceTemplate/lists': () => ({}),
  'priceTemplate/info': (w) => ({ id: w.template.id }),
  'priceTemplate/add': (w) => ({ id: w.template.id, name: 'Bad input template', price: 100, deposit: 0, weekend_price: 120, renewal_price: 90, date_prices: [{ date: day, price: 150 }] }),
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
  'lock/empowerFace': (w) => ({ face_img_id: w.face.id, room_id: w.rooms[2]!.id, note: 'door', start_time: '2027-03-01 14:00:00', end_time: '2027-03-02 12:00:00' }),
  'lock/empowerFaceList': (w) => ({ page: 1, limit: 20, face_img_id: w.face.id, room_id: w.rooms[0]!.id, stay_id: w.stay.id, scope: 'all' }),
  'lock/deleteEmpowerFace': (w) => ({ id: w.faceAuthorization.id }),
  'oss/token': () => ({}),
  'cardDispenser/add': () => ({ device_id: `SIM-BAD-${randomUUID().slice(0, 8)}`, name: 'Desk' }),
  'cardDispenser/lists': () => ({ page: 1, limit: 20 }),
  'cardDispenser/checkStatus': (w) => ({ id: w.dispenser.id, device_id: w.dispenser.deviceId, status: 'online', stock: 40, capacity: 100 }),
  'order/setCashData': (w) => ({ stay_id: w.orderStay.id, type: 'payment', amount: 100, pay_type: 'cash', note: 'Desk', request_id: randomUUID() }),
  'order/macMember': (w) => ({ customer_id: w.orderCustomer.id, mobile: w.orderCustomer.mobile }),
  'order/refund': (w) => ({ order_id: w.orderPayment.id, amount: 1, reason: 'Bad input', pay_type: 'cash', request_id: randomUUID() }),
  'order/recharge': (w) => ({ customer_id: w.orderCustomer.id, mobile: w.orderCustomer.mobile, amount: 10, pay_type: 'cash', note: 'Top-up', request_id: randomUUID() }),
  'order/orderList': (w) => ({ page: 1, limit: 20, type: 'payment', pay_type: 'cash', stay_id: w.orderStay.id, room_id: w.orderPayment.roomId, customer_id: w.orderCustomer.id, operator_id: w.owner.id, start_date: day, end_date: day }),
  'order/cash': (w) => ({ date: day, operator_id: w.owner.id }),
  'room/staffList': () => ({ page: 1, limit: 20, keyword: 'B' }),
  'room/staffManageRoomList': (w) => ({ id: w.staffTarget.id }),
  'room/staffManageRoomList1': (w) => ({ id: w.staffTarget.id }),
  'room/addStaff': (w) => ({ account: uniqueMobile(), name: 'Bad staff', gender: 'female', nationality: 'CN', birth: '1990-01-01', role: 'staff', all_room: 0, room_ids: [w.rooms[0]!.id], api_key_auth: 0 }),
  'room/addStaffManageLock': (w) => ({ id: w.staffTarget.id, all_room: 0, room_ids: [w.rooms[0]!.id] }),
  'room/deleteStaff': (w) => ({ id: w.legacyRemoveTarget.id }),
  'user/setManager': (w) => ({ id: w.staffTarget.id, role: 'admin', api_key_auth: 0 }),
};

const guest = { name: 'Bad Guest', gender: 'male', nationality: 'CN', birthDate: '1990-01-01', idNumber: 'X1', mobile: '13312340002', email: 'g@example.com' };

/** A valid input of every tRPC procedure (undefined: the procedure takes none). */
const TRPC_EXAMPLES: Record<string, Example> = {
  'auth.captcha': () => undefined,
  'hotel.info': (w) => ({ hotelId: w.hotel.id }),
  'account.profile': () => undefined,
  'account.updateNickname': () => ({ nickname: 'Bad input owner' }),
  'account.setAvatar': () => ({ avatar: null }),
  'account.changeEmail': () => ({ email: 'bad-input-owner@example.com', password: 'surely-wrong-1' }),
  'account.changeMobile': () => ({ mobile: '13312340009', password: 'surely-wrong-1' }),
  'account.sessions': () => undefined,
  'account.revokeSession': () => ({ sessionId: 2_000_000_000 }),
  'account.revokeOtherSessions': () => undefined,
  'hotel.update': (w) => ({ hotelId: w.hotel.id, name: 'Bad input hotel', address: '1 Input Road', tel: '021-5555', latitude: 31.2304, longitude: 121.4737, timeZone: 'Asia/Shanghai', currency: 'CNY', checkInTime: '14:00', checkOutTime: '12:00' }),
  'auth.login': () => ({ account: '13312340000', password: 'not-the-password', captchaId: 'k'.repeat(32), captchaCode: 'abcd' }),
  'auth.me': () => undefined,
  'auth.hotels': () => undefined,
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
  'room.create': (w) => ({ name: `N-${randomUUID().slice(0, 6)}`, groupId: w.group.id, remarkName: 'r', description: 'd', lockNotice: 'l', notice: 'n', lockId: 'L', bluetoothName: 'B', macId: '00:11:22:33:44:55', sortOrder: 1 }),
  'room.update': (w) => ({ id: w.rooms[2]!.id, name: 'B103', groupId: w.group.id, remarkName: 'r', sortOrder: 3 }),
  'room.delete': (w) => ({ roomId: w.rooms[2]!.id }),
  'room.setStatus': (w) => ({ roomId: w.rooms[2]!.id, target: 'dirty' }),
  'room.setStatusMany': (w) => ({ roomIds: [w.rooms[2]!.id], target: 'clean' }),
  'room.setLock': (w) => ({ roomId: w.rooms[2]!.id, lockId: 'L', bluetoothName: 'B', macId: '00:11:22:33:44:55' }),
  'room.unlockRecords': (w) => ({ roomId: w.rooms[0]!.id, page: 1, pageSize: 20, from: '2027-01-01', to: '2027-01-31' }),
  'roomGroup.list': () => undefined,
  'roomGroup.create': () => ({ name: `G-${randomUUID().slice(0, 6)}`, sort: 1 }),
  'roomGroup.update': (w) => ({ id: w.group.id, name: 'Bad input', sort: 2 }),
  'roomGroup.delete': (w) => ({ id: w.group.id }),
  'price.room': (w) => ({ roomId: w.rooms[2]!.id }),
  'price.setRoom': (w) => ({ roomId: w.rooms[2]!.id, depositAmount: 5000, usualPrice: 20_000, weekendPrice: 25_000, renewalPrice: 18_000, datePrices: [{ date: day, price: 30_000 }] }),
  'price.quote': (w) => ({ roomId: w.rooms[2]!.id, checkInAt: soon(), expectedCheckOutAt: later(), kind: 'stay' }),
  'price.templates': () => undefined,
  'price.template': (w) => ({ id: w.template.id }),
  'price.saveTemplate': (w) => ({ id: w.template.id, name: 'Bad input template', depositAmount: 0, usualPrice: 10_000, weekendPrice: 12_000, renewalPrice: 9_000, datePrices: [{ date: day, price: 15_000 }] }),
  'price.deleteTemplate': (w) => ({ id: w.template.id }),
  'price.applyTemplate': (w) => ({ templateId: w.template.id, roomIds: [w.rooms[2]!.id], groupId: w.group.id }),
  'stay.list': (w) => ({ page: 1, pageSize: 20, state: 'all', from: '2027-01-01', to: '2027-12-31', roomId: w.rooms[0]!.id, guest: 'P' }),
  'stay.get': (w) => ({ stayId: w.stay.id }),
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
    remark: 'note',
    idempotencyKey: randomUUID(),
    acknowledge: [],
  }),
  'stay.arrive': (w) => ({ stayId: w.reservation.id, checkInAt: new Date().toISOString(), expectedCheckOutAt: hours(80).toISOString(), priceMode: 'computed', acknowledge: [] }),
  'stay.cancelReservation': (w) => ({ stayId: w.reservation.id }),
  'stay.checkOut': (w) => ({ stayId: w.stay.id }),
  'stay.renew': (w) => ({ stayId: w.stay.id, expectedCheckOutAt: hours(60).toISOString(), priceMode: 'fixed', fixedPrice: 20_000 }),
  'stay.changeRoom': (w) => ({ stayId: w.stay.id, targetRoomId: w.rooms[2]!.id }),
  'stay.addGuest': (w) => ({ stayId: w.stay.id, guest }),
  'stay.removeGuest': (w) => ({ stayId: w.stay.id, guestId: w.co.id }),
  'stay.guest': (w) => ({ guestId: w.primary.id }),
  'stay.guests': () => ({ page: 1, pageSize: 20, search: 'P', currentOnly: true }),
  'stay.breakfast': () => ({ date: day }),
  'stay.serveBreakfast': (w) => ({ stayId: w.stay.id, date: day, guests: 1, acknowledge: [] }),
  'password.list': (w) => ({ page: 1, pageSize: 20, roomId: w.rooms[0]!.id, stayId: w.stay.id, scope: 'all' }),
  'password.get': (w) => ({ id: w.password.id }),
  'password.create': (w) => ({ roomId: w.rooms[0]!.id, kind: 'custom', code: '592718', holderName: 'Guest', stayId: w.stay.id, validFrom: soon(), validUntil: later() }),
  'password.revoke': (w) => ({ id: w.password.id, reason: 'called_back' }),
  'password.retry': (w) => ({ id: w.password.id }),
  'card.reserve': (w) => ({ uid: '04A1B2C3', kind: 'room', stayId: w.stay.id, mode: 'duplicate', roomIds: [w.rooms[0]!.id], allRooms: false, validFrom: soon(), validUntil: later(), note: 'Front desk' }),
  'card.confirm': () => ({ issueId: 1, uid: '04A1B2C3', blocks: [{ block: 4, data: '00'.repeat(16) }] }),
  'card.voidReservation': () => ({ issueId: 1 }),
  'card.send': (w) => ({ cardNumber: '3506998852', kind: 'room', stayId: w.stay.id, roomIds: [w.rooms[0]!.id], validFrom: soon(), validUntil: later(), note: 'Over the air' }),
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
  'order.settle': (w) => ({ stayId: w.settleStay.id, checkOut: true, deposit: 'keep', depositReason: 'Damage', payment: { amount: 100, method: 'cash' }, refundMethod: 'cash' }),
  'order.recharge': (w) => ({ customerId: w.orderCustomer.id, mobile: w.orderCustomer.mobile, amount: 10, method: 'cash', note: 'Top-up', requestId: randomUUID() }),
  'order.customerBalance': (w) => ({ customerId: w.orderCustomer.id, mobile: w.orderCustomer.mobile }),
  'order.list': (w) => ({ page: 1, pageSize: 20, kinds: ['payment'], method: 'cash', stayId: w.orderStay.id, roomId: w.orderPayment.roomId, customerId: w.orderCustomer.id, operatorId: w.owner.id, from: day, to: day }),
  'order.cashReport': (w) => ({ date: day, operatorId: w.owner.id }),
  'audit.list': (w) => ({ page: 1, pageSize: 20, actorType: 'account', actorAccountId: w.owner.id, action: 'room', entityType: 'Room', entityId: String(w.rooms[0]!.id), channel: 'console', from: day, to: day }),
  'audit.actors': () => undefined,
  'board.today': () => undefined,
  'export.start': () => ({ list: 'rooms', filters: { status: 'vacant', search: 'B10' }, scope: 'all', page: 1, pageSize: 20, fileName: 'Rooms' }),
  'export.status': () => ({ id: 'exp-00000000-0000-4000-8000-000000000000' }),
  'export.list': () => undefined,
  'staff.list': () => ({ page: 1, pageSize: 20, search: 'B' }),
  'staff.get': (w) => ({ id: w.staffTarget.id }),
  'staff.roomChoices': (w) => ({ id: w.staffTarget.id }),
  'staff.add': (w) => ({ account: uniqueMobile(), name: 'Bad staff', gender: 'male', nationality: 'CN', birthDate: '1990-01-01', role: 'staff', allRooms: false, roomIds: [w.rooms[0]!.id], apiKeyAuth: false }),
  'staff.setRole': (w) => ({ id: w.staffTarget.id, role: 'admin' }),
  'staff.setProfile': (w) => ({ id: w.staffTarget.id, name: 'Bad staff', gender: 'female', nationality: 'CN', birthDate: '1990-01-01' }),
  'staff.setRooms': (w) => ({ id: w.staffTarget.id, allRooms: false, roomIds: [w.rooms[0]!.id] }),
  'staff.setApiKeyAuth': (w) => ({ id: w.staffTarget.id, apiKeyAuth: true }),
  'staff.setFrozen': (w) => ({ id: w.staffTarget.id, frozen: true }),
  'staff.remove': (w) => ({ id: w.trpcRemoveTarget.id }),
};


// ---------------------------------------------------------------------------------------------
// The matrix

/**
 * nf: "not found"; np: "no permission"; ok: answered, showing nothing of room Y (staff) or of hotel A
 * (hotel B); refused: another client error (a photo not found, a rule), showing nothing of them either.
 */
type Outcome = 'nf' | 'np' | 'ok' | 'refused';
/** `<staff limited to X>/<hotel B>`, or `self`: the call acts on the caller's own account or session only, or needs none (not run here). */
type Row = `${Outcome}/${Outcome}` | 'self';

const ROWS: Record<string, Row> = {
  'card.deleteKeySet': 'np/nf',
  'apiKey.revoke': 'np/nf',
  'user/apiKeyDel': 'np/nf',
  captcha: 'self',
  login: 'self',
  logout: 'self',
  'setting/updatePassword': 'self',
  'getBack/sendMsg': 'self',
  'getBack/reset': 'self',
  'room/clientList': 'ok/ok',
  'room/clientDelete': 'np/nf',
  'room/listNew': 'ok/ok',
  'room/setRoomStatus': 'nf/nf',
  'room/allLock': 'ok/ok',
  'room/lockInfo': 'nf/nf',
  'room/setLockData': 'nf/nf',
  'room/category/list': 'ok/ok',
  'room/addCategory': 'np/ok',
  'room/change/category': 'np/nf',
  'room/setPrice': 'np/nf',
  'room/countRoomPriceNew': 'nf/nf',
  'room/tenant/list': 'ok/ok',
  'room/tenant/update/checkIn': 'nf/nf',
  'room/checkOut': 'nf/nf',
  'room/setRenew': 'nf/nf',
  'room/exchangeHouses': 'nf/nf',
  'room/addPassenger': 'nf/nf',
  'room/deletePassenger': 'nf/nf',
  'room/password': 'nf/nf',
  'room/addPassword': 'nf/nf',
  'room/passwordList': 'nf/nf',
  'room/passwordHistory': 'nf/nf',
  'room/deletePassword': 'nf/nf',
  'room/openHistory': 'nf/nf',
  'room/openHistoryByPeople': 'nf/nf',
  'lock/checkHistory': 'nf/nf',
  'lock/managerList': 'nf/nf',
  'lock/managerAddNew': 'np/nf',
  'lock/managerDelete': 'np/nf',
  'lock/inLockList': 'nf/nf',
  'lock/messageList': 'nf/nf',
  'lock/deleteMessage': 'nf/nf',
  'room/callbackPassword': 'nf/nf',
  'room/tenant/limitPassword': 'nf/nf',
  'room/cardAdd': 'nf/nf',
  'room/addCardStepTwoNew': 'nf/nf',
  'room/sendCard': 'nf/nf',
  'room/sendCardEncryption': 'nf/nf',
  'room/cardEncryption': 'np/ok',
  'room/cardEncryptionList': 'np/ok',
  'room/deleteCardEncryption': 'np/nf',
  'room/sendCardEncryptionSyntony': 'nf/nf',
  'lock/noteCardList': 'nf/nf',
  'passenger/getRoomInfo': 'ok/ok',
  'passenger/deleteCardByCardId': 'nf/nf',
  'room/hotelBreakFastList': 'ok/ok',
  'room/hotelBreakFast': 'nf/nf',
  'room/hotelInfo': 'ok/nf',
  'room/getHotelInfo': 'ok/ok',
  'room/setHotelInfo': 'np/nf',
  'room/setHotelData': 'np/nf',
  'priceTemplate/lists': 'ok/ok',
  'priceTemplate/info': 'ok/nf',
  'priceTemplate/add': 'np/nf',
  'priceTemplate/delete': 'np/nf',
  'priceTemplate/setPriceTemplate': 'np/nf',
  'user/freezeUser': 'np/nf',
  'user/apikey': 'np/ok',
  'user/apiKeyList': 'np/ok',
  'passenger/list': 'ok/ok',
  'passenger/info': 'nf/nf',
  'user/uploadTFaceImg': 'nf/refused',
  'user/faceImgList': 'ok/ok',
  'user/updateFaceNote': 'ok/nf',
  'user/updateLockFaceNote': 'nf/nf',
  'lock/empowerFace': 'nf/nf',
  'lock/empowerFaceList': 'ok/ok',
  'lock/deleteEmpowerFace': 'nf/nf',
  'oss/token': 'ok/ok',
  'cardDispenser/add': 'np/ok',
  'cardDispenser/lists': 'ok/ok',
  'cardDispenser/checkStatus': 'ok/nf',
  'order/setCashData': 'nf/nf',
  'order/macMember': 'ok/nf',
  'order/refund': 'np/nf',
  'order/recharge': 'np/nf',
  'order/orderList': 'np/ok',
  'order/cash': 'np/ok',
  'room/staffList': 'np/ok',
  'room/staffManageRoomList': 'np/nf',
  'room/staffManageRoomList1': 'np/nf',
  'room/addStaff': 'np/nf',
  'room/addStaffManageLock': 'np/nf',
  'room/deleteStaff': 'np/nf',
  'user/setManager': 'np/nf',
  'auth.captcha': 'self',
  'hotel.info': 'ok/nf',
  'account.profile': 'self',
  'account.updateNickname': 'self',
  'account.setAvatar': 'self',
  'account.changeEmail': 'self',
  'account.changeMobile': 'self',
  'account.sessions': 'self',
  'account.revokeSession': 'self',
  'account.revokeOtherSessions': 'self',
  'hotel.update': 'np/nf',
  'auth.login': 'self',
  'auth.me': 'self',
  // The account's own hotels; hotel B's owner cannot switch its session into hotel A.
  'auth.hotels': 'ok/ok',
  'auth.switchHotel': 'ok/nf',
  'auth.logout': 'self',
  'auth.changePassword': 'self',
  'auth.sendResetCode': 'self',
  'auth.resetPassword': 'self',
  'customer.list': 'ok/ok',
  'customer.get': 'ok/nf',
  'customer.setFrozen': 'np/nf',
  'customer.delete': 'np/nf',
  'room.list': 'ok/ok',
  'room.get': 'nf/nf',
  'room.create': 'np/nf',
  'room.update': 'np/nf',
  'room.delete': 'np/nf',
  'room.setStatus': 'nf/nf',
  'room.setStatusMany': 'nf/nf',
  'room.setLock': 'np/nf',
  'room.unlockRecords': 'nf/nf',
  'roomGroup.list': 'ok/ok',
  'roomGroup.create': 'np/ok',
  'roomGroup.update': 'np/nf',
  'roomGroup.delete': 'np/nf',
  'price.room': 'nf/nf',
  'price.setRoom': 'np/nf',
  'price.quote': 'nf/nf',
  'price.templates': 'ok/ok',
  'price.template': 'ok/nf',
  'price.saveTemplate': 'np/nf',
  'price.deleteTemplate': 'np/nf',
  'price.applyTemplate': 'np/nf',
  'stay.list': 'ok/ok',
  'stay.get': 'nf/nf',
  'stay.checkIn': 'nf/nf',
  'stay.arrive': 'nf/nf',
  'stay.cancelReservation': 'nf/nf',
  'stay.checkOut': 'nf/nf',
  'stay.renew': 'nf/nf',
  'stay.changeRoom': 'nf/nf',
  'stay.addGuest': 'nf/nf',
  'stay.removeGuest': 'nf/nf',
  'stay.guest': 'nf/nf',
  'stay.guests': 'ok/ok',
  'stay.breakfast': 'ok/ok',
  'stay.serveBreakfast': 'nf/nf',
  'password.list': 'nf/nf',
  'password.get': 'nf/nf',
  'password.create': 'nf/nf',
  'password.revoke': 'nf/nf',
  'password.retry': 'nf/nf',
  'card.reserve': 'nf/nf',
  'card.confirm': 'nf/nf',
  'card.voidReservation': 'nf/nf',
  'card.send': 'nf/nf',
  'card.lookup': 'ok/ok',
  'card.return': 'nf/nf',
  'card.reportLost': 'nf/nf',
  'card.revoke': 'nf/nf',
  'card.list': 'ok/ok',
  'card.get': 'nf/nf',
  'card.roomFit': 'nf/nf',
  'card.keySets': 'np/ok',
  'card.createKeySet': 'np/ok',
  'card.syncKeys': 'nf/nf',
  'card.keyStates': 'ok/ok',
  'apiKey.create': 'np/ok',
  'apiKey.list': 'np/ok',
  'face.list': 'ok/ok',
  'face.get': 'ok/nf',
  'face.ofGuest': 'ok/ok',
  'face.create': 'nf/refused',
  'face.updateNote': 'ok/nf',
  'face.authorize': 'nf/nf',
  'face.authorizations': 'ok/ok',
  'face.revokeAuthorization': 'nf/nf',
  'face.retryAuthorization': 'nf/nf',
  'face.updateAuthorizationNote': 'nf/nf',
  'password.limit': 'nf/nf',
  'lock.provider': 'ok/ok',
  'lock.status': 'nf/nf',
  'lock.unlock': 'nf/nf',
  'lock.contents': 'nf/nf',
  'lock.removeUnmanaged': 'nf/nf',
  'lock.messages': 'nf/nf',
  'lock.unreadMessages': 'ok/ok',
  'lock.markMessagesRead': 'ok/ok',
  'lock.deleteMessages': 'nf/nf',
  'lock.recordsByPerson': 'nf/nf',
  'lock.managers': 'nf/nf',
  'lock.addManager': 'np/nf',
  'lock.deleteManager': 'np/nf',
  'password.staff': 'ok/ok',
  'reader.environment': 'ok/ok',
  'reader.list': 'ok/ok',
  'reader.mine': 'ok/ok',
  'reader.register': 'ok/ok',
  'reader.rename': 'np/nf',
  'reader.bind': 'np/nf',
  'reader.unbind': 'np/nf',
  'reader.delete': 'np/nf',
  'dispenser.list': 'ok/ok',
  'dispenser.add': 'np/ok',
  'dispenser.rename': 'np/nf',
  'dispenser.checkStatus': 'ok/nf',
  'dispenser.delete': 'np/nf',
  'order.folio': 'nf/nf',
  'order.postRoomCharge': 'nf/nf',
  'order.recordCharge': 'nf/nf',
  'order.recordDeposit': 'nf/nf',
  'order.recordPayment': 'nf/nf',
  'order.refund': 'np/nf',
  'order.correct': 'np/nf',
  'order.settle': 'nf/nf',
  'order.recharge': 'np/nf',
  'order.customerBalance': 'ok/nf',
  'order.list': 'np/ok',
  'order.cashReport': 'np/ok',
  'audit.list': 'np/ok',
  'audit.actors': 'np/ok',
  'board.today': 'ok/ok',
  'export.start': 'ok/ok',
  'export.status': 'nf/nf',
  'export.list': 'ok/ok',
  'staff.list': 'np/ok',
  'staff.get': 'np/nf',
  'staff.roomChoices': 'np/nf',
  'staff.add': 'np/nf',
  'staff.setRole': 'np/nf',
  'staff.setProfile': 'np/nf',
  'staff.setRooms': 'np/nf',
  'staff.setApiKeyAuth': 'np/nf',
  'staff.setFrozen': 'np/nf',
  'staff.remove': 'np/nf',
  // Faces belong to the hotel; a face still authorised on a lock is refused, its rooms outside the member's scope counted, never named.
  'face.delete': 'refused/nf',
  'user/deleteTFaceImg': 'refused/nf',
};

/** Procedures and actions whose row is not written yet, and why: reported, never silently passed. */
const PENDING = new Map<string, string>([]);

let staffX: { web: string; legacy: string; gateway: string };
let hotelB: { web: string; legacy: string; gateway: string };
let markers: { roomY: string[]; hotelA: string[] };
/** Hotel A's records that the bad-input examples do not name (they use id 1): its key set and API key. */
let extra: { keySetId: number; apiKeyId: number; managerId: number; messageId: number; reservedIssueId: number; issuedCard: { id: number; number: string } };
const TRPC_OVERRIDES: Record<string, () => Record<string, unknown>> = {
  'card.deleteKeySet': () => ({ id: extra.keySetId }),
  'apiKey.revoke': () => ({ id: extra.apiKeyId }),
  'card.confirm': () => ({ issueId: extra.reservedIssueId, uid: '04A1B2C3', blocks: [{ block: 4, data: '00'.repeat(16) }] }),
  'card.voidReservation': () => ({ issueId: extra.reservedIssueId }),
  'lock.deleteManager': () => ({ id: extra.managerId }),
  'lock.deleteMessages': () => ({ ids: [extra.messageId] }),
};
const LEGACY_OVERRIDES: Record<string, () => Record<string, unknown>> = {
  'user/apiKeyDel': () => ({ id: extra.apiKeyId }),
  'room/deleteCardEncryption': () => ({ id: extra.keySetId }),
  'lock/managerDelete': () => ({ id: extra.managerId }),
  'lock/deleteMessage': () => ({ id: extra.messageId }),
  'room/addCardStepTwoNew': () => ({ card_id: extra.reservedIssueId, uid: '04A1B2C4', blocks: [{ block: 4, data: '00'.repeat(16) }], cancel: 0 }),
  'passenger/deleteCardByCardId': () => ({ card_id: extra.issuedCard.id }),
};

async function buildMatrix() {
  const w = world;
  // A staff member of hotel A limited to a room of its own (X): every room of the world is a room Y to it.
  const { rooms: [x] } = await createRooms(ctx.deps, w.hotel.id, ['PM-X']);
  const account = await createAccount(ctx.deps, { hotelId: w.hotel.id, role: 'staff' });
  const membership = await ctx.deps.prisma.membership.update({ where: { accountId_hotelId: { accountId: account.id, hotelId: w.hotel.id } }, data: { allRooms: false } });
  await ctx.deps.prisma.membershipRoom.create({ data: { hotelId: w.hotel.id, membershipId: membership.id, roomId: x!.id } });
  await insertStay(ctx.deps, { hotelId: w.hotel.id, roomId: x!.id, checkInAt: hours(-1), expectedCheckOutAt: hours(20), guestName: 'PM-X guest' });
  const session = async (accountId: number, hotelId: number, kind: 'web' | 'legacy' | 'gateway') => (await createSession(ctx.deps, { accountId, hotelId, kind, meta: testMeta() })).token;
  staffX = { web: await session(account.id, w.hotel.id, 'web'), legacy: await session(account.id, w.hotel.id, 'legacy'), gateway: await session(account.id, w.hotel.id, 'gateway') };
  // Hotel B: an owner (every permission) with a room and a stay of its own.
  const b = await createHotel(ctx.deps);
  const owner = await createAccount(ctx.deps, { hotelId: b.id, role: 'owner', apiKeyAuth: true });
  const { rooms: [bRoom] } = await createRooms(ctx.deps, b.id, ['PM-B']);
  await insertStay(ctx.deps, { hotelId: b.id, roomId: bRoom!.id, checkInAt: hours(-1), expectedCheckOutAt: hours(20), guestName: 'PM-B guest' });
  hotelB = { web: await session(owner.id, b.id, 'web'), legacy: await session(owner.id, b.id, 'legacy'), gateway: await session(owner.id, b.id, 'gateway') };
  const keySet = await createCardKeySet(await actorContext(ctx.deps, w.ownerToken), { name: 'PM keys', sector: 3 });
  const apiKey = await ctx.deps.prisma.apiKey.create({ data: { hotelId: w.hotel.id, name: 'PM key', prefix: 'slk_pm', keyHash: randomUUID(), permissions: ['room.read'] } });
  // Records of hotel A's room B101 (a room Y): a lock manager, a lock message, a card reservation and an issued card.
  const y = w.rooms[0]!;
  const manager = await ctx.deps.prisma.lockManager.create({ data: { hotelId: w.hotel.id, roomId: y.id, name: 'PM manager' } });
  const message = await ctx.deps.prisma.lockMessage.create({ data: { hotelId: w.hotel.id, roomId: y.id, kind: 'low_battery', content: 'PM message' } });
  const cardOf = (cardNumber: string, uid: string) => ctx.deps.prisma.card.create({ data: { hotelId: w.hotel.id, cardNumber, uid, kind: 'room' } });
  const [reservedCard, issuedCard] = [await cardOf('4011', '00000FAB'), await cardOf('4012', '00000FAC')];
  const issue = (cardId: number, uid: string, state: 'reserved' | 'issued') =>
    ctx.deps.prisma.cardIssue.create({ data: { hotelId: w.hotel.id, cardId, kind: 'room', state, roomId: y.id, uid, keyId: keySet.id, blocks: [], validFrom: hours(-1), validUntil: hours(20) } });
  const reserved = await issue(reservedCard.id, '00000FAB', 'reserved');
  await issue(issuedCard.id, '00000FAC', 'issued');
  extra = { keySetId: keySet.id, apiKeyId: apiKey.id, managerId: manager.id, messageId: message.id, reservedIssueId: reserved.id, issuedCard: { id: issuedCard.id, number: issuedCard.cardNumber } };
  const roomY = ['B101', 'B102', 'B103', 'B104', 'B105', 'B106', 'Y-Primary', 'Co guest', 'Password guest', 'Order guest', 'Settle guest', '483920', '619284'];
  markers = { roomY, hotelA: [...roomY, w.hotel.name, 'Bad input face', 'Bad input template', 'Bad input dispenser', 'SIM-BAD-INPUT-1', 'Bad 1', 'Orders 1', w.owner.mobile!, w.staff.mobile!] };
}

interface Answer {
  outcome: Outcome | `error ${string}`;
  text: string;
}

async function asTrpc(path: string, type: 'query' | 'mutation', input: unknown, token: string): Promise<Answer> {
  const res = await (type === 'query' ? api.raw.query(path as 'room.get', input, { token }) : api.raw.mutation(path as 'room.create', input, { token }));
  const code = res.error?.data.app?.code;
  const outcome = res.status === 200 ? 'ok' : code === 'NOT_FOUND' ? 'nf' : code === 'FORBIDDEN' ? 'np' : code && code !== 'INTERNAL' && code !== 'UNAUTHENTICATED' ? 'refused' : (`error ${code ?? res.status}` as const);
  return { outcome, text: JSON.stringify(res.data ?? res.error ?? '') };
}

async function asLegacy(path: string, payload: unknown, token: string): Promise<Answer> {
  const res = await legacy.call(path, (payload ?? {}) as Record<string, unknown>, { token, language: 'en' });
  const outcome = res.errno === 0 ? 'ok' : res.errno === 100005 ? 'nf' : res.errno === 100004 ? 'np' : res.status === 200 && res.errno !== 100500 && res.errno !== 100003 ? 'refused' : (`error ${res.errno} ${res.errmsg}` as const);
  return { outcome, text: JSON.stringify({ errmsg: res.errmsg, data: res.data ?? null }) };
}

const leaked = (answer: Answer, names: string[]) => names.filter((n) => answer.text.includes(n));

beforeAll(async () => {
  ctx = await createTestContext();
  legacy = legacyClient(ctx.app, ctx.config);
  api = trpcClient(ctx.app);
  world = await buildWorld();
  await buildMatrix();
}, 120_000);
afterAll(() => ctx.close());

const procedures = Object.entries((appRouter as unknown as { _def: { procedures: Record<string, { _def: { type: 'query' | 'mutation' } }> } })._def.procedures);
const trpcPaths = procedures.map(([p]) => p);
const legacyPaths = LEGACY_ACTIONS.map((a) => a.path);
const DISCOVER = process.env.PERMISSION_MATRIX_DISCOVER === '1';

describe('every tRPC procedure and legacy action has a row in the permission matrix', () => {
  it('has a row or is listed as pending (a new procedure or action must add its row)', () => {
    const missing = [...trpcPaths, ...legacyPaths].filter((p) => !ROWS[p] && !PENDING.has(p));
    expect(missing, 'procedures and actions without a row').toEqual([]);
    expect([...PENDING.keys()].filter((p) => ROWS[p]), 'pending, yet with a row').toEqual([]);
    expect([...Object.keys(ROWS), ...PENDING.keys()].filter((p) => !trpcPaths.includes(p) && !legacyPaths.includes(p)), 'rows of nothing').toEqual([]);
    if (PENDING.size > 0) console.warn(`permission matrix: ${PENDING.size} rows pending:\n${[...PENDING].map(([p, why]) => `  ${p}: ${why}`).join('\n')}`);
  });
});

async function check(path: string, send: (token: string) => Promise<Answer>, kind: 'web' | 'legacy') {
  const row = ROWS[path];
  if (DISCOVER ? /^(auth\.|account\.|captcha$|login$|logout$|setting\/|getBack\/)/.test(path) : !row || row === 'self') return;
  const [staffExpected, hotelBExpected] = (row ?? 'ok/ok').split('/') as Outcome[];
  const staff = await send(kind === 'web' ? staffX.web : staffX.legacy);
  const other = await send(kind === 'web' ? hotelB.web : hotelB.legacy);
  if (DISCOVER) {
    console.warn(`MATRIX ${path} | ${staff.outcome}${leaked(staff, markers.roomY).length ? ` LEAK ${leaked(staff, markers.roomY).join(',')}` : ''} | ${other.outcome}${leaked(other, markers.hotelA).length ? ` LEAK ${leaked(other, markers.hotelA).join(',')}` : ''}`);
    if (process.env.PERMISSION_MATRIX_SHOW === path) console.warn(`SHOW ${staff.text}\nSHOW ${other.text}`);
    return;
  }
  expect(staff.outcome, `${path}: staff limited to room X ${staff.text.slice(0, 300)}`).toBe(staffExpected);
  expect(leaked(staff, markers.roomY), `${path}: shows room Y to a staff member limited to X`).toEqual([]);
  expect(other.outcome, `${path}: hotel B ${other.text.slice(0, 300)}`).toBe(hotelBExpected);
  expect(leaked(other, markers.hotelA), `${path}: shows hotel A to hotel B`).toEqual([]);
}

describe.each(procedures)('tRPC %s', (path, procedure) => {
  it('gives a staff member without room Y and hotel B what its row says', async () => {
    await check(path, (token) => asTrpc(path, procedure._def.type, (TRPC_OVERRIDES[path] ?? TRPC_EXAMPLES[path])?.(world), token), 'web');
  });
});

describe.each(legacyPaths)('legacy %s', (path) => {
  it('gives a staff member without room Y and hotel B what its row says', async () => {
    await check(path, (token) => asLegacy(path, (LEGACY_OVERRIDES[path] ?? LEGACY_EXAMPLES[path])?.(world), token), 'legacy');
  });
});

describe('the card-service gateway', () => {
  const gateway = () => gatewayClient(ctx.app);
  it('lists only room X to the staff member and nothing of hotel A to hotel B', async () => {
    const staff = await gateway().get('/linQuan/getRoomListByHotelId', undefined, { token: staffX.gateway });
    expect(staff.code).toBe(200);
    expect(staff.text).toContain('PM-X');
    expect(markers.roomY.filter((n) => staff.text.includes(n))).toEqual([]);
    const other = await gateway().get('/linQuan/getRoomListByHotelId', { hotelId: world.hotel.id }, { token: hotelB.gateway });
    expect(other.code).not.toBe(200);
    expect(markers.hotelA.filter((n) => other.text.includes(n))).toEqual([]);
  });

  it('finds none of room Y (staff) and none of hotel A (hotel B) when writing cards or reading records', async () => {
    for (const token of [staffX.gateway, hotelB.gateway]) {
      const answers = [
        await gateway().post('/linQuan/writeRoomCard', { uid: 'A1B2C3D4', roomId: world.rooms[0]!.id }, { token }),
        await gateway().post('/linQuan/writeRoomCard', { uid: 'A1B2C3D4', stayId: world.stay.id }, { token }),
        await gateway().post('/linQuan/writeRoomCard', { uid: 'A1B2C3D4', cardType: 'management', roomIds: [world.rooms[0]!.id], endTime: '2099-01-01 00:00' }, { token }),
        await gateway().post('/linQuan/getAuthorizationRecord', { roomId: world.rooms[0]!.id }, { token }),
        await gateway().post('/linQuan/getAuthorizationRecord', { stayId: world.stay.id }, { token }),
        await gateway().post('/linQuan/getAuthorizationRecord', { type: 'unlocks', roomId: world.rooms[0]!.id }, { token }),
      ];
      expect(answers.map((a) => a.code)).toEqual(answers.map(() => 404));
      for (const a of answers) expect(markers.hotelA.filter((n) => a.text.includes(n))).toEqual([]);
    }
  });
});
