import { isPublicAddress } from '../../../../src/domain/dimensions/isPublicAddress';
import { parseClientIp } from '../../../../src/domain/dimensions/parseClientIp';
import { RejectReason } from '../../../../src/domain/RejectReason';
import { rejectionOf } from './rejectionOf';

describe('parseClientIp', () => {
  it.each([
    ['203.0.113.7', { version: 4, address: '203.0.113.7', octets: [203, 0, 113, 7] }],
    ['0.0.0.0', { version: 4, address: '0.0.0.0', octets: [0, 0, 0, 0] }],
    ['2001:db8::7', { version: 6, address: '2001:db8::7', groups: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 7] }],
    ['::1', { version: 6, address: '::1', groups: [0, 0, 0, 0, 0, 0, 0, 1] }],
    ['::', { version: 6, address: '::', groups: [0, 0, 0, 0, 0, 0, 0, 0] }],
    [
      '2001:DB8:0:0:8:800:200C:417A',
      { version: 6, address: '2001:DB8:0:0:8:800:200C:417A', groups: [0x2001, 0xdb8, 0, 0, 8, 0x800, 0x200c, 0x417a] },
    ],
    ['fe80::1%eth0', { version: 6, address: 'fe80::1', groups: [0xfe80, 0, 0, 0, 0, 0, 0, 1] }],
    ['2001:db8::', { version: 6, address: '2001:db8::', groups: [0x2001, 0xdb8, 0, 0, 0, 0, 0, 0] }],
    // IPv4 inside IPv6: mapped (dotted or hex) and NAT64 are the IPv4 client
    ['::ffff:198.51.100.7', { version: 4, address: '198.51.100.7', octets: [198, 51, 100, 7] }],
    ['::FFFF:c633:6407', { version: 4, address: '198.51.100.7', octets: [198, 51, 100, 7] }],
    ['64:ff9b::8.8.8.8', { version: 4, address: '8.8.8.8', octets: [8, 8, 8, 8] }],
    ['64:ff9b::808:808', { version: 4, address: '8.8.8.8', octets: [8, 8, 8, 8] }],
    // IPv4-compatible (deprecated) stays IPv6
    ['::8.8.8.8', { version: 6, address: '::8.8.8.8', groups: [0, 0, 0, 0, 0, 0, 0x808, 0x808] }],
  ])('%j is %j', (text, ip) => {
    expect(parseClientIp(text)).toEqual(ip);
  });

  it.each([
    '',
    ' 203.0.113.7',
    '203.0.113.7 ',
    '203.0.113',
    '203.0.113.256',
    '203.0.113.07',
    '203.0.113.7:8080',
    '[2001:db8::7]',
    '[2001:db8::7]:443',
    '2001:db8:::7',
    '2001:db8::7::1',
    '12345::',
    'localhost',
    '203.0.113.7, 10.0.0.1',
    '-',
  ])('refuses %j', (text) => {
    expect(rejectionOf(() => parseClientIp(text))).toEqual({
      reason: RejectReason.CLIENT_IP_MALFORMED,
      message: `clientIp must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got ${JSON.stringify(text)}`,
      field: 'clientIp',
    });
  });

  it('names the field it was given and shortens what came', () => {
    expect(rejectionOf(() => parseClientIp('x'.repeat(100), () => 'hits[2].clientIp'))).toEqual({
      reason: RejectReason.CLIENT_IP_MALFORMED,
      message: `hits[2].clientIp must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got "${'x'.repeat(60)}…" (100 characters)`,
      field: 'hits[2].clientIp',
    });
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['100.63.255.255', true],
    ['100.128.0.0', true],
    ['172.15.255.255', true],
    ['172.32.0.0', true],
    ['192.169.0.1', true],
    ['223.255.255.255', true],
    ['2001:4860:4860::8888', true],
    ['2a00:1450:4001:80b::200e', true],
    ['2002:c000:0204::1', true],
    ['::ffff:8.8.8.8', true],
    ['0.1.2.3', false],
    ['10.1.2.3', false],
    ['100.64.0.1', false],
    ['127.0.0.1', false],
    ['169.254.1.1', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.0.0.8', false],
    ['192.0.2.1', false],
    ['192.168.1.1', false],
    ['198.18.0.1', false],
    ['198.51.100.7', false],
    ['203.0.113.7', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['::', false],
    ['::1', false],
    ['::ffff:10.0.0.1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false],
    ['fe80::1%eth0', false],
    ['ff02::1', false],
    ['2001:db8::7', false],
    ['2001::1', false],
    ['3fff::1', false],
    ['64:ff9b:1::1', false],
    ['100::1', false],
  ])('%s is public: %p', (text, expected) => {
    expect(isPublicAddress(parseClientIp(text))).toBe(expected);
  });
});
