import { isLoopbackHost } from '../../../src/auth/isLoopbackHost';

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['127.255.255.255', true],
    ['::1', true],
    ['0:0:0:0:0:0:0:1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['10.0.0.1', false],
    ['128.0.0.1', false],
    ['::ffff:10.0.0.1', false],
    ['::2', false],
    ['example.com', false],
    ['localhost.example.com', false],
    ['127.example.com', false],
    ['', false],
  ])('%j listens only on this machine: %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});
