/**
 * The ingest log's record framing (the LevelDB log pattern): `[u32 length][u32 crc32][u8 type][payload]`, little
 * endian, the checksum over type and payload. A torn write (a crash mid-append, a full disk) leaves a frame whose
 * length runs past the file or whose checksum fails: `readFrames` stops there and says where the whole records end.
 */
import { crc32 } from 'node:zlib';

export const FRAME_HEADER_BYTES = 9;
/** No record is larger: a longer length field is a torn or corrupt header, never a record. */
export const MAX_FRAME_PAYLOAD_BYTES = 64 * 1024 * 1024;

export interface Frame {
  readonly type: number;
  readonly payload: Buffer;
  /** Offset of the frame's first byte within the buffer read. */
  readonly start: number;
  /** Offset just past the frame. */
  readonly end: number;
}

export function encodeFrame(type: number, payload: Buffer): Buffer {
  if (payload.length > MAX_FRAME_PAYLOAD_BYTES) {
    throw new RangeError(`a log record holds at most ${MAX_FRAME_PAYLOAD_BYTES} bytes, got ${payload.length}`);
  }
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt8(type, 8);
  payload.copy(frame, FRAME_HEADER_BYTES);
  frame.writeUInt32LE(crc32(frame.subarray(8)), 4);
  return frame;
}

export interface ReadFrames {
  readonly frames: Frame[];
  /** Where the last whole, valid record ends: the file is cut here when `torn`. */
  readonly validEnd: number;
  /** Bytes after validEnd: a torn or corrupt tail. */
  readonly tornBytes: number;
}

export function readFrames(buffer: Buffer): ReadFrames {
  const frames: Frame[] = [];
  let at = 0;
  while (at < buffer.length) {
    if (buffer.length - at < FRAME_HEADER_BYTES) break;
    const length = buffer.readUInt32LE(at);
    if (length > MAX_FRAME_PAYLOAD_BYTES || at + FRAME_HEADER_BYTES + length > buffer.length) break;
    const end = at + FRAME_HEADER_BYTES + length;
    if (crc32(buffer.subarray(at + 8, end)) !== buffer.readUInt32LE(at + 4)) break;
    frames.push({
      type: buffer.readUInt8(at + 8),
      payload: buffer.subarray(at + FRAME_HEADER_BYTES, end),
      start: at,
      end,
    });
    at = end;
  }
  return { frames, validEnd: at, tornBytes: buffer.length - at };
}
