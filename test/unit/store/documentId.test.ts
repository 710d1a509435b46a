import { parseSite } from '../../../src/domain/parseSite';
import { dailyDocumentId } from '../../../src/store/dailyStats';
import { monthlyDocumentId } from '../../../src/store/monthlyStats';

const day = Date.parse('2010-10-10T12:00:00Z');

describe('document ids', () => {
  it('follow the seed layout YYYYMMDD/site/page and YYYYMM/site/page', () => {
    expect(dailyDocumentId('site-1', '/apache_pb.gif', day)).toBe('20101010/site-1/apache_pb.gif');
    expect(monthlyDocumentId('site-1', '/apache_pb.gif', day)).toBe('201010/site-1/apache_pb.gif');
  });

  it('cannot collide: the seed collision (site "a" + page "/b/c" vs site "a/b" + page "/c") is refused at input', () => {
    expect(dailyDocumentId('a', '/b/c', day)).toBe('20101010/a/b/c');
    expect(() => parseSite('a/b')).toThrow('site must not contain "/", got "a/b"');
  });

  it('gives distinct ids to distinct pairs of valid sites and pages', () => {
    const pairs: Array<[string, string]> = [
      ['a', '/b/c'],
      ['a', '/b'],
      ['ab', '/c'],
      ['a.b', '/c'],
      ['a', '/b.c'],
      ['a', '/%2F'],
      ['a', '//'],
    ];
    const ids = pairs.map(([site, page]) => dailyDocumentId(parseSite(site), page, day));
    expect(new Set(ids).size).toBe(pairs.length);
  });
});
