import type { Dimension } from '../../../../src/domain/dimensions/Dimension';
import { parseExplicitDimension } from '../../../../src/domain/dimensions/parseExplicitDimension';
import { RejectReason } from '../../../../src/domain/RejectReason';
import { rejectionOf } from './rejectionOf';

describe('parseExplicitDimension', () => {
  it.each<[Dimension, string, string]>([
    ['source', 'Newsletter', 'Newsletter'],
    ['source', '  Partner   site ', 'Partner site'],
    ['source', '(direct)', '(direct)'],
    ['source', '(internal)', '(internal)'],
    ['utmSource', 'Newsletter', 'newsletter'],
    ['utmMedium', 'E-Mail', 'e-mail'],
    ['utmCampaign', 'Spring Sale', 'Spring Sale'],
    ['utmCampaign', '(none)', '(none)'],
    ['utmCampaign', 'x'.repeat(100), 'x'.repeat(100)],
    ['browser', 'Firefox', 'Firefox'],
    ['os', '(unknown)', '(unknown)'],
    ['device', 'Mobile', 'mobile'],
    ['device', 'tv', 'tv'],
    ['device', '(unknown)', '(unknown)'],
    ['country', 'de', 'DE'],
    ['country', ' FR ', 'FR'],
    ['country', '(unknown)', '(unknown)'],
  ])('%s %j is %j', (dimension, text, value) => {
    expect(parseExplicitDimension(dimension, text)).toBe(value);
  });

  it.each<[Dimension, string, RejectReason, string]>([
    ['source', '', RejectReason.DIMENSION_VALUE_EMPTY, 'source must not be empty'],
    ['utmSource', '   ', RejectReason.DIMENSION_VALUE_EMPTY, 'utmSource must not be empty'],
    [
      'utmCampaign',
      'x'.repeat(101),
      RejectReason.DIMENSION_VALUE_TOO_LONG,
      'utmCampaign must be at most 100 characters, got 101',
    ],
    [
      'source',
      'a'.repeat(254),
      RejectReason.DIMENSION_VALUE_TOO_LONG,
      'source must be at most 253 characters, got 254',
    ],
    [
      'browser',
      'Fire\u0000fox',
      RejectReason.DIMENSION_VALUE_HAS_CONTROL,
      'browser must not contain control characters, got "Fire\\u0000fox"',
    ],
    [
      'os',
      'Linux\n',
      RejectReason.DIMENSION_VALUE_HAS_CONTROL,
      'os must not contain control characters, got "Linux\\n"',
    ],
    [
      'utmCampaign',
      'a\ud800',
      RejectReason.MALFORMED_UNICODE,
      'utmCampaign must be well-formed Unicode, got "a\\ud800"',
    ],
    [
      'country',
      'Germany',
      RejectReason.COUNTRY_NOT_ISO_CODE,
      'country must be an ISO 3166-1 alpha-2 code such as "DE", or "(unknown)", got "Germany"',
    ],
    [
      'country',
      'D1',
      RejectReason.COUNTRY_NOT_ISO_CODE,
      'country must be an ISO 3166-1 alpha-2 code such as "DE", or "(unknown)", got "D1"',
    ],
    [
      'device',
      'phone',
      RejectReason.DEVICE_NOT_KNOWN,
      'device must be one of desktop, mobile, tablet, tv, console or (unknown), got "phone"',
    ],
  ])('refuses %s %j: %s', (dimension, text, reason, message) => {
    expect(rejectionOf(() => parseExplicitDimension(dimension, text))).toEqual({ reason, message, field: dimension });
  });

  it('counts code points, not UTF-16 units, against the limit', () => {
    expect(parseExplicitDimension('utmCampaign', '😀'.repeat(100))).toBe('😀'.repeat(100));
  });

  it('names the field it is given', () => {
    expect(rejectionOf(() => parseExplicitDimension('country', 'xyz', () => 'hits[1].country')).field).toBe(
      'hits[1].country',
    );
  });
});
