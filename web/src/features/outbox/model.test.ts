import { bodyParts } from './model';

describe('outbox message bodies', () => {
  it('makes links clickable, leaving the sentence punctuation out', () => {
    expect(bodyParts('Open this link:\n\nhttp://127.0.0.1:8080/auth/recover-password?token=abc-123&invite=1.\n')).toEqual([
      { kind: 'text', text: 'Open this link:\n\n' },
      { kind: 'link', href: 'http://127.0.0.1:8080/auth/recover-password?token=abc-123&invite=1' },
      { kind: 'text', text: '.\n' },
    ]);
    expect(bodyParts('(see https://example.com/x)')).toEqual([
      { kind: 'text', text: '(see ' },
      { kind: 'link', href: 'https://example.com/x' },
      { kind: 'text', text: ')' },
    ]);
  });

  it('picks out sign-in codes, but not short numbers or digits inside words and links', () => {
    expect(bodyParts('Your Encore sign-in code is 042917. It expires in 5 minutes.')).toEqual([
      { kind: 'text', text: 'Your Encore sign-in code is ' },
      { kind: 'code', code: '042917' },
      { kind: 'text', text: '. It expires in 5 minutes.' },
    ]);
    expect(bodyParts('Order ab123456 costs 12.50 within 30 minutes, 7 days')).toEqual([
      { kind: 'text', text: 'Order ab123456 costs 12.50 within 30 minutes, 7 days' },
    ]);
    expect(bodyParts('https://h/pay/123456?t=1')).toEqual([{ kind: 'link', href: 'https://h/pay/123456?t=1' }]);
  });

  it('marks what was withheld from the reader', () => {
    expect(bodyParts('Your code is •••. Open ••• now.')).toEqual([
      { kind: 'text', text: 'Your code is ' },
      { kind: 'redacted' },
      { kind: 'text', text: '. Open ' },
      { kind: 'redacted' },
      { kind: 'text', text: ' now.' },
    ]);
  });

  it('never links anything but http and https', () => {
    expect(bodyParts('javascript:alert(1) ftp://x.example')).toEqual([{ kind: 'text', text: 'javascript:alert(1) ftp://x.example' }]);
    expect(bodyParts('')).toEqual([]);
  });
});
