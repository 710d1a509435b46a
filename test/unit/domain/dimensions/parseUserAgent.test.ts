import { UNKNOWN } from '../../../../src/domain/dimensions/dimensionMarkers';
import { parseUserAgent } from '../../../../src/domain/dimensions/parseUserAgent';

// Real User-Agent strings, as browsers of mid-2024 send them.
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('parseUserAgent', () => {
  it.each([
    // Windows
    [CHROME_WINDOWS, 'Chrome', 'Windows', 'desktop'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:127.0) Gecko/20100101 Firefox/127.0',
      'Firefox',
      'Windows',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.87',
      'Edge',
      'Windows',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 OPR/111.0.0.0',
      'Opera',
      'Windows',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:115.0) Gecko/20100101 Firefox/115.0',
      'Firefox',
      'Windows',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
      'Internet Explorer',
      'Windows',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 YaBrowser/24.6.0.0 Safari/537.36',
      'Yandex',
      'Windows',
      'desktop',
    ],
    // macOS
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome',
      'macOS',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      'Safari',
      'macOS',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
      'Firefox',
      'macOS',
      'desktop',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.2592.68',
      'Edge',
      'macOS',
      'desktop',
    ],
    // Linux and ChromeOS
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome',
      'Linux',
      'desktop',
    ],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0', 'Firefox', 'Linux', 'desktop'],
    ['Mozilla/5.0 (X11; Fedora; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox', 'Linux', 'desktop'],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome',
      'ChromeOS',
      'desktop',
    ],
    // Android phones
    [
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome',
      'Android',
      'mobile',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
      'Samsung Internet',
      'Android',
      'mobile',
    ],
    ['Mozilla/5.0 (Android 14; Mobile; rv:127.0) Gecko/127.0 Firefox/127.0', 'Firefox', 'Android', 'mobile'],
    [
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 OPR/83.0.0.0',
      'Opera',
      'Android',
      'mobile',
    ],
    [
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36 EdgA/126.0.2592.80',
      'Edge',
      'Android',
      'mobile',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/126.0.6478.122 Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/470.0.0.43.109;]',
      'Facebook',
      'Android',
      'mobile',
    ],
    // Android tablets
    [
      'Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
      'Chrome',
      'Android',
      'tablet',
    ],
    [
      'Mozilla/5.0 (Linux; Android 13; SAMSUNG SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Safari/537.36',
      'Samsung Internet',
      'Android',
      'tablet',
    ],
    [
      'Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/126.3.1 like Chrome/126.0.6478.153 Safari/537.36',
      'Silk',
      'Android',
      'tablet',
    ],
    // iPhone
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari',
      'iOS',
      'mobile',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
      'Chrome',
      'iOS',
      'mobile',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15',
      'Firefox',
      'iOS',
      'mobile',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/126.2592.86 Mobile/15E148 Safari/605.1.15',
      'Edge',
      'iOS',
      'mobile',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 335.0.1.20.86 (iPhone14,5; iOS 17_5; en_US; en; scale=3.00; 1170x2532; 612839214)',
      'Instagram',
      'iOS',
      'mobile',
    ],
    // iPad: iPadOS when the UA says iPad; a desktop-mode iPad sends a Mac's UA and counts as one
    [
      'Mozilla/5.0 (iPad; CPU OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
      'Safari',
      'iPadOS',
      'tablet',
    ],
    [
      'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
      'Chrome',
      'iPadOS',
      'tablet',
    ],
    // Smart TVs, streaming sticks, consoles
    [
      'Mozilla/5.0 (SMART-TV; LINUX; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36',
      'Safari',
      'Tizen',
      'tv',
    ],
    [
      'Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/87.0.4280.88 Safari/537.36 WebAppManager',
      'Chrome',
      'webOS',
      'tv',
    ],
    [
      'Mozilla/5.0 (Linux; Android 12; BRAVIA 4K VH2 Build/STT1.211025.001.Z4) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.5615.136 Safari/537.36',
      'Chrome',
      'Android',
      'tv',
    ],
    [
      'Mozilla/5.0 (Linux; Android 9; AFTMM Build/PS7233) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.5615.213 Mobile Safari/537.36',
      'Chrome',
      'Android',
      'tv',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edge/44.18363.8131',
      'Edge',
      'Xbox',
      'console',
    ],
    [
      'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.0 Safari/605.1.15',
      'Safari',
      'PlayStation',
      'console',
    ],
    // A watch fits no class
    [
      'Mozilla/5.0 (Linux; Android 10; SM-R860) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/2.0 Chrome/87.0.4280.141 Mobile Safari/537.36',
      'Samsung Internet',
      'Android',
      UNKNOWN,
    ],
    // Not browsers
    ['curl/8.5.0', UNKNOWN, UNKNOWN, UNKNOWN],
    ['', UNKNOWN, UNKNOWN, UNKNOWN],
    ['(garbage) ;;; //', UNKNOWN, UNKNOWN, UNKNOWN],
    ['MyApp/1.0 (Windows NT 10.0)', UNKNOWN, 'Windows', 'desktop'],
  ])('%s is %s on %s, %s', (userAgent, browser, os, device) => {
    expect(parseUserAgent(userAgent)).toEqual({ browser, os, device });
  });
});
