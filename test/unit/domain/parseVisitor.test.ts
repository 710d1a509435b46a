import { parseVisitor } from '../../../src/domain/parseVisitor';
import { RejectReason } from '../../../src/domain/RejectReason';
import { rejectionOf } from './dimensions/rejectionOf';

describe('parseVisitor', () => {
  it.each([
    ['one character', 'a'],
    ['an account id', 'user-42'],
    ['255 characters', 'x'.repeat(255)],
    ['letters outside ASCII, an emoji and a space', 'ü🙂 space'],
  ])('accepts %s as it is', (_, visitor) => {
    expect(parseVisitor(visitor)).toBe(visitor);
  });

  it.each([
    [RejectReason.VISITOR_EMPTY, '', 'visitor must not be empty'],
    [RejectReason.VISITOR_TOO_LONG, 'x'.repeat(256), 'visitor must be at most 255 characters, got 256'],
    [RejectReason.VISITOR_HAS_CONTROL, 'ab\ncd', 'visitor must not contain control characters, got U+000A at index 2'],
    [RejectReason.VISITOR_HAS_CONTROL, '\u0000', 'visitor must not contain control characters, got U+0000 at index 0'],
    [RejectReason.VISITOR_HAS_CONTROL, 'a\u0085', 'visitor must not contain control characters, got U+0085 at index 1'],
    [
      RejectReason.MALFORMED_UNICODE,
      'ok\ud800',
      'visitor must be well-formed Unicode, got the lone surrogate U+D800 at index 2',
    ],
    [
      RejectReason.MALFORMED_UNICODE,
      '\udc00🙂',
      'visitor must be well-formed Unicode, got the lone surrogate U+DC00 at index 0',
    ],
  ])('refuses with %s, naming the field and never echoing the id', (reason, visitor, message) => {
    expect(rejectionOf(() => parseVisitor(visitor))).toEqual({ reason, message, field: 'visitor' });
  });

  it('names the field it is given, built only when the id is refused', () => {
    const field = jest.fn(() => 'hits[3].visitor');
    expect(parseVisitor('fine', field)).toBe('fine');
    expect(field).not.toHaveBeenCalled();
    expect(rejectionOf(() => parseVisitor('', field))).toEqual({
      reason: RejectReason.VISITOR_EMPTY,
      message: 'hits[3].visitor must not be empty',
      field: 'hits[3].visitor',
    });
  });
});
