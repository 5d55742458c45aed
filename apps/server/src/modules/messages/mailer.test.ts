import { describe, expect, it } from 'vitest';
import { mailIdentity } from './mailer';

/** Who a hotel's e-mail is from (issue 27 §8): the install's address unless the hotel's domain is allowed. */
describe('mailIdentity', () => {
  const install = { from: { name: 'Console', address: 'noreply@console.example' }, allowedSenderDomains: ['harbour-hotel.com'] };
  const hotel = { name: 'Harbour Hotel' };

  it('sends as the install under the hotel name, replies to the hotel, when the hotel’s domain is not allowed', () => {
    expect(mailIdentity(install, hotel, { senderName: '', senderEmail: 'director@bank.example' })).toEqual({
      from: { name: 'Harbour Hotel', address: 'noreply@console.example' },
      replyTo: { name: 'Harbour Hotel', address: 'director@bank.example' },
      envelopeFrom: 'noreply@console.example',
      hotelAddressIsFrom: false,
    });
  });

  it('sends as the hotel on an allowed domain, whatever its case; a subdomain is another domain', () => {
    expect(mailIdentity(install, hotel, { senderName: 'Front desk', senderEmail: 'Desk@Harbour-Hotel.COM' })).toEqual({
      from: { name: 'Front desk', address: 'Desk@Harbour-Hotel.COM' },
      replyTo: { name: 'Front desk', address: 'Desk@Harbour-Hotel.COM' },
      envelopeFrom: 'Desk@Harbour-Hotel.COM',
      hotelAddressIsFrom: true,
    });
    expect(mailIdentity(install, hotel, { senderName: '', senderEmail: 'desk@mail.harbour-hotel.com' })).toMatchObject({
      from: { address: 'noreply@console.example' },
      hotelAddressIsFrom: false,
    });
    expect(mailIdentity(install, hotel, { senderName: '', senderEmail: 'desk@evilharbour-hotel.com' })).toMatchObject({ hotelAddressIsFrom: false });
  });

  it('has no Reply-To without a hotel address, and no sender without SMTP_FROM or an allowed address', () => {
    expect(mailIdentity(install, hotel, { senderName: '', senderEmail: '' })).toMatchObject({ replyTo: null, from: { address: 'noreply@console.example' } });
    const bare = { from: null, allowedSenderDomains: [] };
    expect(mailIdentity(bare, hotel, { senderName: '', senderEmail: 'desk@harbour-hotel.com' })).toEqual({
      from: null,
      replyTo: { name: 'Harbour Hotel', address: 'desk@harbour-hotel.com' },
      envelopeFrom: null,
      hotelAddressIsFrom: false,
    });
  });

  it('writes every name on one line, whatever was kept', () => {
    const identity = mailIdentity(
      install,
      { name: 'Harbour\r\nHotel' },
      { senderName: 'Front\r\nBcc: x@example.com\u2028desk\u0000', senderEmail: 'a@b.example' },
    );
    expect(identity.from?.name).toBe('Front Bcc: x@example.com desk');
    expect(mailIdentity(install, { name: 'Harbour\r\nHotel' }, { senderName: '', senderEmail: '' }).from?.name).toBe('Harbour Hotel');
  });
});
