import { NONE } from '../../../../src/domain/dimensions/dimensionMarkers';
import { utmFrom } from '../../../../src/domain/dimensions/utmFrom';

describe('utmFrom', () => {
  it.each([
    // Where the query is
    ['https://example.com/p?utm_source=news&utm_medium=email&utm_campaign=spring', ['news', 'email', 'spring']],
    ['/p?utm_source=news&utm_medium=email&utm_campaign=spring', ['news', 'email', 'spring']],
    ['?utm_source=news', ['news', NONE, NONE]],
    ['utm_source=news&utm_medium=cpc', ['news', 'cpc', NONE]],
    ['https://example.com/p?utm_source=news#utm_medium=ignored', ['news', NONE, NONE]],
    ['https://example.com/p#section?utm_source=ignored', [NONE, NONE, NONE]],
    ['https://example.com/utm_source=path', [NONE, NONE, NONE]],
    ['/utm_source=path', [NONE, NONE, NONE]],
    // Nothing to find
    [undefined, [NONE, NONE, NONE]],
    ['', [NONE, NONE, NONE]],
    ['https://example.com/p?q=1', [NONE, NONE, NONE]],
    ['/p?UTM_SOURCE=upper', [NONE, NONE, NONE]],
    ['/p?utm_source=&utm_medium=%20%20', [NONE, NONE, NONE]],
    // Decoding: + is a space, percent-escapes are UTF-8
    ['/p?utm_campaign=Spring+Sale', [NONE, NONE, 'Spring Sale']],
    ['/p?utm_campaign=Spring%20Sale%202026', [NONE, NONE, 'Spring Sale 2026']],
    ['/p?utm_campaign=caf%C3%A9&utm_source=Caf%C3%A9', ['café', NONE, 'café']],
    ['/p?utm_campaign=a%2Bb%26c', [NONE, NONE, 'a+b&c']],
    ['/p?utm_campaign=%E0%A4%A', [NONE, NONE, '\ufffd%A']],
    // Normalisation: source and medium lower-case, whitespace collapsed, controls gone
    ['/p?utm_source=Newsletter&utm_medium=E-Mail&utm_campaign=Launch', ['newsletter', 'e-mail', 'Launch']],
    ['/p?utm_campaign=%20a%09%0A%20b%20', [NONE, NONE, 'a b']],
    // Repeated parameters: the first non-empty one
    ['/p?utm_source=a&utm_source=b', ['a', NONE, NONE]],
    ['/p?utm_source=&utm_source=b', ['b', NONE, NONE]],
  ])('%j → source, medium, campaign %j', (url, [utmSource, utmMedium, utmCampaign]) => {
    expect(utmFrom(url)).toEqual({ utmSource, utmMedium, utmCampaign });
  });

  it('cuts values to 100 code points, never inside a surrogate pair', () => {
    const campaign = `${'x'.repeat(99)}😀tail`;
    expect(utmFrom(`/p?utm_campaign=${encodeURIComponent(campaign)}`).utmCampaign).toBe(`${'x'.repeat(99)}😀`);
    expect(utmFrom(`/p?utm_source=${'y'.repeat(500)}`).utmSource).toBe('y'.repeat(100));
  });
});
