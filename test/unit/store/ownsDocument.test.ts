import { ownsDocument } from '../../../src/store/deleteOwnerDocuments';

describe('ownsDocument', () => {
  const site = { site: 'a.example' };
  const page = { site: 'a.example', page: '/b' };

  it.each([
    // id, owned by the site, owned by the page /b
    ['20260105/a.example/b', true, true],
    ['202601/a.example/b', true, true],
    ['202601051230/a.example/b', true, true],
    ['20260105/a.example', true, false],
    ['20260105/a.example/b/c', true, false],
    ['20260105/a.example/bc', true, false],
    ['20260105/a.example/', true, false],
    ['20260105/a.example.org/b', false, false],
    ['20260105/xa.example/b', false, false],
    ['20260105/b.example/a.example/b', false, false],
    ['a.example/b', false, false],
    ['no-slash', false, false],
  ])('%s: site %s, page %s', (id, bySite, byPage) => {
    expect(ownsDocument(site, id)).toBe(bySite);
    expect(ownsDocument(page, id)).toBe(byPage);
  });
});
