import { parseRegisterKey, registerKey } from '../../../../src/domain/visitors/registerKey';

describe('registerKey', () => {
  it('names a register by its decimal number', () => {
    expect([0, 7, 2047, 8191, 65535].map(registerKey)).toEqual(['0', '7', '2047', '8191', '65535']);
  });

  it('reads back every register it names', () => {
    const registers = Array.from({ length: 65536 }, (_, register) => register);
    expect(registers.map((register) => parseRegisterKey(registerKey(register)))).toEqual(registers);
  });

  it.each(['', '65536', '99999', '100000', '007', '00', '-1', '+1', '1.5', '1e3', ' 1', '1 ', 'x', '0x10'])(
    'reads %j as no register',
    (key) => {
      expect(parseRegisterKey(key)).toBeUndefined();
    },
  );
});
