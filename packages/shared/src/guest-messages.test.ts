import { describe, expect, it } from 'vitest';
import { guestMessageLanguage, languageOfPhone, renderMessageText, renderTemplate, templateVariables, unknownTemplateVariables } from './guest-messages';

describe('guest messages', () => {
  it("chooses the guest's language: the stay's, else the phone's country code, else the hotel's", () => {
    expect(languageOfPhone('+86 138 0013 8000')).toBe('zh-CN');
    expect(languageOfPhone('+81-90-1234-5678')).toBe('ja');
    expect(languageOfPhone('+82 10 1234 5678')).toBe('ko');
    expect(languageOfPhone('+966 50 123 4567')).toBe('ar');
    expect(languageOfPhone('+971 50 123 4567')).toBe('ar');
    expect(languageOfPhone('0033 6 12 34 56 78')).toBe('fr');
    expect(languageOfPhone('+49 151 2345678')).toBe('de');
    expect(languageOfPhone('+34 612 345 678')).toBe('es');
    expect(languageOfPhone('+886 912 345 678')).toBe('zh-TW');
    expect(languageOfPhone('+351 912 345 678')).toBe('pt');
    expect(languageOfPhone('13800138000')).toBeUndefined();
    expect(guestMessageLanguage({ stayLanguage: 'it', mobile: '+81 90 1234 5678', hotelLanguage: 'en' })).toBe('it');
    expect(guestMessageLanguage({ mobile: '+81 90 1234 5678', hotelLanguage: 'en' })).toBe('ja');
    expect(guestMessageLanguage({ mobile: '13800138000', hotelLanguage: 'de' })).toBe('de');
  });

  it('renders known variables and finds unknown ones', () => {
    expect(templateVariables('{{code}} {{ room }} {{code}}')).toEqual(['code', 'room']);
    expect(unknownTemplateVariables('{{code}} {{roomNumber}} {{}}')).toEqual(['roomNumber', '']);
    expect(renderTemplate('Room {{ room }}: {{code}} {{other}}', { room: '1208', code: '583916' })).toBe('Room 1208: 583916 {{other}}');
  });
});

describe('renderMessageText', () => {
  it('leaves out a line naming an empty key page link, and keeps it when there is one', () => {
    const text = 'Code {{code}}\nYour key: {{keyPageLink}}\n{{hotel}}';
    expect(renderMessageText(text, { code: '583916', keyPageLink: '', hotel: 'H' })).toBe('Code 583916\nH');
    expect(renderMessageText(text, { code: '583916', keyPageLink: 'https://x.test/k/a', hotel: 'H' })).toBe('Code 583916\nYour key: https://x.test/k/a\nH');
    expect(renderMessageText('{{code}}', { code: '1' })).toBe('1');
  });
});
