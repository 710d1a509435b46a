import { mkdirSync, mkdtempSync, readdirSync, statSync, truncateSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IngestLog, segmentName } from '../../../../src/ingest/log/IngestLog';
import { readCheckpoint, writeCheckpoint } from '../../../../src/ingest/log/LogCheckpoint';
import { createLogger } from '../../../../src/logging/createLogger';
import { mountTinyDisk, unmount } from '../../../support/mountTinyDisk';

const logger = createLogger({ level: 'silent', nodeEnv: 'test' });

function openLog(dir: string, fromOffset = 0, segmentBytes = 1 << 20) {
  const consumed: Array<[string, number]> = [];
  const opening = IngestLog.open<string>(dir, {
    fromOffset,
    segmentBytes,
    consume: (item, end) => consumed.push([item, end]),
    logger,
  });
  return { opening, consumed };
}

const text = (payload: Buffer) => payload.toString('utf8');

describe('IngestLog', () => {
  it('answers appends in order once durable, and a reopen reads them all back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
    const { opening, consumed } = openLog(dir);
    const { log, records } = await opening;
    expect(records).toEqual([]);
    const ends = await Promise.all(['a', 'bb', 'ccc'].map((p) => log.append(1, Buffer.from(p), p)));
    expect(consumed).toEqual([
      ['a', ends[0]],
      ['bb', ends[1]],
      ['ccc', ends[2]],
    ]);
    expect(ends[2]).toBe(log.end);
    await log.close();

    const reopened = await openLog(dir).opening;
    expect(reopened.records.map((r) => [text(r.payload), r.end])).toEqual([
      ['a', ends[0]],
      ['bb', ends[1]],
      ['ccc', ends[2]],
    ]);
    await reopened.log.close();
  });

  it('returns only the records past the checkpoint offset', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
    const { log } = await openLog(dir).opening;
    const first = await log.append(1, Buffer.from('flushed'), 'flushed');
    await log.append(1, Buffer.from('pending'), 'pending');
    await log.close();
    const { log: again, records } = await openLog(dir, first).opening;
    expect(records.map((r) => text(r.payload))).toEqual(['pending']);
    await again.close();
  });

  it('cuts a torn tail at the last whole record, keeps appending after it, and reads the new records back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
    const { log } = await openLog(dir).opening;
    const whole = await log.append(1, Buffer.from('whole'), 'whole');
    const torn = await log.append(1, Buffer.from('torn record'), 'torn');
    await log.close();
    const file = join(dir, segmentName(0));
    truncateSync(file, torn - 3);
    appendFileSync(file, Buffer.from([1, 2]));

    const { log: cut, records } = await openLog(dir).opening;
    expect(records.map((r) => text(r.payload))).toEqual(['whole']);
    expect(statSync(file).size).toBe(whole);
    await cut.append(1, Buffer.from('after'), 'after');
    await cut.close();
    const { log: last, records: again } = await openLog(dir).opening;
    expect(again.map((r) => text(r.payload))).toEqual(['whole', 'after']);
    await last.close();
  });

  it('starts a new segment past segmentBytes and deletes whole segments once flushed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
    const { log } = await openLog(dir, 0, 64).opening;
    const ends: number[] = [];
    for (let i = 0; i < 6; i++) ends.push(await log.append(1, Buffer.alloc(40, i), `r${i}`));
    const segments = () => readdirSync(dir).filter((n) => n.endsWith('.log'));
    expect(segments().length).toBeGreaterThan(2);
    await log.dropBefore(ends[3] as number);
    // The segment holding record 4 onwards stays; nothing before the first kept segment's start is needed.
    const starts = segments().map((n) => Number(n.slice(0, -4)));
    expect(Math.min(...starts)).toBeLessThanOrEqual(ends[3] as number);
    expect(segments().length).toBeLessThan(6);
    await log.close();
    const { log: again, records } = await openLog(dir, ends[3]).opening;
    expect(records.map((r) => r.payload[0])).toEqual([4, 5]);
    await again.close();
  });

  it('refuses to open a log damaged before its last segment, since cutting there would drop later records', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
    const { log } = await openLog(dir, 0, 64).opening;
    for (let i = 0; i < 4; i++) await log.append(1, Buffer.alloc(40, i), `r${i}`);
    await log.close();
    const first = join(dir, segmentName(0));
    truncateSync(first, statSync(first).size - 1);
    await expect(openLog(dir).opening).rejects.toThrow(
      `segment ${first} is damaged at offset 49, before later segments`,
    );
  });

  it('deletes the active segment once every record in it is flushed, and appends after that are read back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
    const { log } = await openLog(dir).opening;
    const end = await log.append(1, Buffer.from('flushed'), 'flushed');
    await log.dropBefore(end);
    expect(readdirSync(dir).filter((n) => n.endsWith('.log'))).toEqual([segmentName(end)]);
    expect(log.bytes).toBe(0);
    await log.append(1, Buffer.from('later'), 'later');
    await log.close();
    const { log: again, records } = await openLog(dir, end).opening;
    expect(records.map((r) => text(r.payload))).toEqual(['later']);
    await again.close();
  });

  it('writes a closing record alone and ends its segment there, so the window is deleted whole once flushed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
    const { opening, consumed } = openLog(dir);
    const { log } = await opening;
    const end1 = await log.append(1, Buffer.from('hit-1'), 'hit-1');
    const sealEnd = await log.appendClosing(2, Buffer.from('seal'), 'seal');
    const end2 = await log.append(1, Buffer.from('hit-2'), 'hit-2');
    expect(consumed).toEqual([
      ['hit-1', end1],
      ['seal', sealEnd],
      ['hit-2', end2],
    ]);
    expect(sealEnd).toBeGreaterThan(end1);
    expect(end2).toBeGreaterThan(sealEnd);
    expect(readdirSync(dir).filter((n) => n.endsWith('.log'))).toEqual([segmentName(0), segmentName(sealEnd)]);
    await log.dropBefore(sealEnd);
    expect(readdirSync(dir).filter((n) => n.endsWith('.log'))).toEqual([segmentName(sealEnd)]);
    expect(log.bytes).toBe(end2 - sealEnd);
    await log.close();
    const { log: again, records } = await openLog(dir, sealEnd).opening;
    expect(records.map((r) => text(r.payload))).toEqual(['hit-2']);
    await again.close();
  });

  it('refuses a second owner of the directory while the first lives', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tally-log-'));
    const { log } = await openLog(dir).opening;
    // A LOCK naming another live process (this test's parent) is refused.
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'LOCK'), String(process.ppid));
    await expect(openLog(dir).opening).rejects.toThrow(`in use by process ${process.ppid}`);
    writeFileSync(join(dir, 'LOCK'), String(process.pid));
    await log.close();
  });
});

const disk = mountTinyDisk('tally-log-full');
afterAll(() => {
  if (disk) unmount(disk);
});

// A skip states its reason: without root no tmpfs can be mounted to fill.
(disk ? describe : describe.skip)('IngestLog on a full disk (needs root to mount a tmpfs)', () => {
  const record = Buffer.alloc(4096, 'h');
  const fill = async (log: IngestLog<string>, bytes: number): Promise<unknown> => {
    for (let i = 0; i < bytes / record.length; i++) {
      try {
        await log.append(1, record, 'hit');
      } catch (error) {
        return error;
      }
    }
    return undefined;
  };

  it('gives up its reserve for the checkpoint when hits appended after a seal filled the disk, and takes hits again', async () => {
    const dir = join(disk as string, 'checkpoint-after-fill');
    mkdirSync(dir);
    const { log } = await openLog(dir).opening;
    // A window of ~120 KiB is sealed while the disk has room, so the seal takes no reserve...
    expect(await fill(log, 120 * 1024)).toBeUndefined();
    const sealEnd = await log.appendClosing(2, Buffer.from('seal'), 'seal');
    // ...then hits fill the disk before that window is written, as on a loaded database.
    const refused = await fill(log, 1 << 20);
    expect(refused).toMatchObject({ message: 'the ingest log refused the hits: the disk is full; retry later' });
    const held = log.bytes;

    // The window is written: its checkpoint must still be saved, or its segment never goes.
    await log.checkpointed(sealEnd, () => writeCheckpoint(dir, { lane: 'lane', seq: 1, offset: sealEnd }));
    expect(await readCheckpoint(dir, () => 'other')).toEqual({ lane: 'lane', seq: 1, offset: sealEnd });
    expect(readdirSync(dir).filter((n) => n.endsWith('.log'))).toEqual([segmentName(sealEnd)]);
    expect(log.bytes).toBeLessThan(held - 100 * 1024);
    // The space is back, the reserve set aside again: hits are taken.
    expect(readdirSync(dir)).toContain('reserve');
    expect(await fill(log, 16 * 1024)).toBeUndefined();
    await log.close();
  });
});
