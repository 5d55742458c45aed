import { apiKeyRouter } from './api-key.router';
import { accountRouter } from './account.router';
import { auditRouter } from './audit.router';
import { authRouter } from './auth.router';
import { todayRouter } from './today.router';
import { cardRouter } from './card.router';
import { passwordRouter } from './password.router';
import { customerRouter } from './customer.router';
import { exportRouter } from './export.router';
import { eventRouter } from './event.router';
import { dispenserRouter } from './dispenser.router';
import { faceRouter } from './face.router';
import { guestMessageRouter } from './guest-message.router';
import { feedRouter } from './feed.router';
import { webhookRouter } from './webhook.router';
import { accessRuleRouter } from './access-rule.router';
import { sharedDoorRouter } from './shared-door.router';
import { hotelRouter } from './hotel.router';
import { invoiceRouter } from './invoice.router';
import { keyPageRouter } from './key-page.router';
import { router } from './init';
import { lockAccountRouter } from './lock-account.router';
import { lockRouter } from './lock.router';
import { orderRouter } from './order.router';
import { priceRouter } from './price.router';
import { readerRouter } from './reader.router';
import { roomGroupRouter, roomRouter } from './room.router';
import { searchRouter } from './search.router';
import { stayRouter } from './stay.router';
import { staffRouter } from './staff.router';
import { timelineRouter } from './timeline.router';
import { housekeepingRouter } from './housekeeping.router';

export const appRouter = router({
  hotel: hotelRouter,
  account: accountRouter,
  auth: authRouter,
  customer: customerRouter,
  room: roomRouter,
  roomGroup: roomGroupRouter,
  price: priceRouter,
  stay: stayRouter,
  password: passwordRouter,
  face: faceRouter,
  reader: readerRouter,
  dispenser: dispenserRouter,
  lock: lockRouter,
  lockAccount: lockAccountRouter,
  card: cardRouter,
  order: orderRouter,
  invoice: invoiceRouter,
  audit: auditRouter,
  apiKey: apiKeyRouter,
  export: exportRouter,
  today: todayRouter,
  staff: staffRouter,
  guestMessage: guestMessageRouter,
  feed: feedRouter,
  webhooks: webhookRouter,
  accessRule: accessRuleRouter,
  sharedDoor: sharedDoorRouter,
  keyPage: keyPageRouter,
  event: eventRouter,
  search: searchRouter,
  timeline: timelineRouter,
  housekeeping: housekeepingRouter,
});

export type AppRouter = typeof appRouter;
