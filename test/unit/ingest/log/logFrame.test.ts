import { encodeFrame, FRAME_HEADER_BYTES, readFrames } from '../../../../src/ingest/log/logFrame';

const records = [Buffer.from('first'), Buffer.alloc(0), Buffer.from('{"hits":[1,2,3]}'), Buffer.alloc(3000, 7)];
const log = Buffer.concat(records.map((payload, i) => encodeFrame(i + 1, payload)));

describe('the ingest log frame', () => {
  it('reads back every record with its type, payload and end', () => {
    const read = readFrames(log);
    expect(read.frames.map((f) => [f.type, f.payload.toString('hex')])).toEqual(
      records.map((payload, i) => [i + 1, payload.toString('hex')]),
    );
    expect(read.validEnd).toBe(log.length);
    expect(read.tornBytes).toBe(0);
    expect(read.frames[0]?.end).toBe(FRAME_HEADER_BYTES + 5);
  });

  it('stops at the last whole record when the tail is cut at any byte', () => {
    const ends = readFrames(log).frames.map((f) => f.end);
    for (let length = 0; length < log.length; length++) {
      const read = readFrames(log.subarray(0, length));
      const whole = ends.filter((end) => end <= length);
      expect(read.frames).toHaveLength(whole.length);
      expect(read.validEnd).toBe(whole.length === 0 ? 0 : whole[whole.length - 1]);
      expect(read.tornBytes).toBe(length - read.validEnd);
    }
  });

  it('stops at a record whose checksum fails, whichever byte of it changed', () => {
    const second = readFrames(log).frames[2];
    if (!second) throw new Error('no third frame');
    for (let at = second.start + 4; at < second.end; at++) {
      const damaged = Buffer.from(log);
      damaged[at] = (damaged[at] as number) ^ 0x40;
      const read = readFrames(damaged);
      expect(read.validEnd).toBe(second.start);
      expect(read.frames).toHaveLength(2);
    }
  });

  it('treats an impossible length as a torn header, not as a huge record', () => {
    const header = Buffer.alloc(FRAME_HEADER_BYTES, 0xff);
    expect(readFrames(Buffer.concat([log, header]))).toMatchObject({
      validEnd: log.length,
      tornBytes: FRAME_HEADER_BYTES,
    });
  });
});
