import { PassThrough, Readable } from 'node:stream';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createGunzip } from 'node:zlib';
import { Binary, Double, Int32, Long } from 'mongodb';
import type { Document } from 'mongodb';
import { ArchiveError } from '../../../../src/store/archive/ArchiveFormat';
import { ArchiveWriter } from '../../../../src/store/archive/ArchiveWriter';
import { openArchive, verifyArchive } from '../../../../src/store/archive/readArchive';
import { VisitorSketch } from '../../../../src/domain/visitors/VisitorSketch';
import { packCounters } from '../../../../src/domain/dimensions/packedCounters';

const CREATED = '2026-11-26T10:00:00.000Z';

/** A site-day document as compaction leaves it: counters, a packed sketch, packed dimension counters. */
function compactedDocument(): Document {
  const sketch = VisitorSketch.empty(13);
  for (let r = 0; r < 8192; r += 7) sketch.words[r] = r * 3 + 1;
  return {
    _id: '20261120/example.com/',
    metadata: { date: new Date('2026-11-20T00:00:00Z'), site: 'example.com', page: '' },
    daily: new Int32(12),
    hourly: { '0': new Int32(5), '13': new Int32(7) },
    big: new Long('9007199254740991'),
    ratio: new Double(2),
    vz: new Binary(Buffer.from(sketch.toPacked())),
    dz: {
      source: new Binary(
        Buffer.from(
          packCounters([
            ['google', 9],
            ['news%2Eexample', 3],
          ]),
        ),
      ),
    },
    secret: new Binary(Buffer.from([0, 255, 1, 254]), 0x80),
    _a: { lane1: new Int32(3) },
  };
}

async function writeArchive(
  collections: ReadonlyArray<readonly [string, readonly Document[]]>,
): Promise<{ text: string; sha256: string }> {
  const sink = new PassThrough();
  const chunks: Buffer[] = [];
  sink.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = new ArchiveWriter(sink, {
    createdAt: CREATED,
    database: 'tally',
    engine: 'FerretDB 1.24.2-tally10',
    collections: collections.map(([name, documents]) => ({ name, estimated: documents.length })),
  });
  for (const [name, documents] of collections) {
    await writer.startCollection(name);
    for (const document of documents) await writer.document(document);
    await writer.endCollection();
  }
  const trailer = await writer.finish();
  return { text: Buffer.concat(chunks).toString('utf8'), sha256: trailer.sha256 };
}

async function readAll(text: string | Buffer): Promise<Array<{ collection: string; document: Document }>> {
  const archive = await openArchive(Readable.from([text]));
  const documents: Array<{ collection: string; document: Document }> = [];
  for await (const { collection, document } of archive.documents) documents.push({ collection, document });
  return documents;
}

describe('the tally-dump archive', () => {
  it('starts with a versioned header, closes each collection with its count and ends with a checksum', async () => {
    const { text, sha256 } = await writeArchive([
      [
        'stats.daily',
        [
          { _id: 'a', daily: new Int32(1) },
          { _id: 'b', daily: new Int32(2) },
        ],
      ],
      ['visitors.salts', []],
    ]);
    const lines = text.trimEnd().split('\n');
    expect(JSON.parse(lines[0] as string)).toEqual({
      format: 'tally-dump',
      version: 1,
      createdAt: CREATED,
      database: 'tally',
      engine: 'FerretDB 1.24.2-tally10',
      collections: [
        { name: 'stats.daily', estimated: 2 },
        { name: 'visitors.salts', estimated: 0 },
      ],
    });
    expect(lines.slice(1)).toEqual([
      '{"collection":"stats.daily"}',
      '{"d":{"_id":"a","daily":{"$numberInt":"1"}}}',
      '{"d":{"_id":"b","daily":{"$numberInt":"2"}}}',
      '{"end":"stats.daily","count":2}',
      '{"collection":"visitors.salts"}',
      '{"end":"visitors.salts","count":0}',
      `{"trailer":true,"documents":2,"sha256":"${sha256}"}`,
    ]);
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('round-trips every BSON type exactly: packed sketches and counters byte for byte, int32, int64, double, dates', async () => {
    const original = compactedDocument();
    const { text } = await writeArchive([['stats.daily', [original]]]);
    const [read] = await readAll(gunzipSync(gzipSync(text)));
    expect(read?.collection).toBe('stats.daily');
    const document = read?.document as Document;
    expect(document).toEqual(original);
    expect((document.vz as Binary).value()).toEqual((original.vz as Binary).value());
    expect((document.secret as Binary).sub_type).toBe(0x80);
    expect(document.daily).toBeInstanceOf(Int32);
    expect(document.big).toBeInstanceOf(Long);
    expect(document.ratio).toBeInstanceOf(Double);
    expect(document.metadata.date).toEqual(new Date('2026-11-20T00:00:00Z'));
  });

  it('refuses an archive cut short anywhere: at a line, inside a line, inside the gzip stream', async () => {
    const { text } = await writeArchive([['stats.daily', [compactedDocument(), { _id: 'z', daily: new Int32(1) }]]]);
    const lines = text.split('\n');
    const withoutTrailer = `${lines.slice(0, -2).join('\n')}\n`;
    await expect(readAll(withoutTrailer)).rejects.toThrow(/without its trailer: it was cut short/);
    const withoutEnd = `${lines.slice(0, 3).join('\n')}\n`;
    await expect(readAll(withoutEnd)).rejects.toThrow(/cut short/);
    await expect(readAll(text.slice(0, text.length / 2))).rejects.toThrow(ArchiveError);
    const gzipped = gzipSync(text);
    const cut = gzipped.subarray(0, gzipped.length - 20);
    const stream = Readable.from([cut]).pipe(createGunzip());
    await expect(verifyArchive(stream)).rejects.toThrow(ArchiveError);
  });

  it('refuses a changed line, a lost line, another version and text that is no archive', async () => {
    const { text } = await writeArchive([
      [
        'stats.daily',
        [
          { _id: 'a', daily: new Int32(1) },
          { _id: 'b', daily: new Int32(2) },
        ],
      ],
    ]);
    await expect(readAll(text.replace('"$numberInt":"2"', '"$numberInt":"3"'))).rejects.toThrow(
      /trailer does not match/,
    );
    const lost = text
      .split('\n')
      .filter((line) => !line.includes('"_id":"a"'))
      .join('\n');
    await expect(readAll(lost)).rejects.toThrow(/should end after 1 documents/);
    await expect(readAll(text.replace('"version":1', '"version":2'))).rejects.toThrow(
      /version 2; this tally reads version 1/,
    );
    await expect(readAll('{"hello":"world"}\n')).rejects.toThrow(/not a tally archive/);
    await expect(readAll('')).rejects.toThrow(/empty/);
  });

  it('reads a complete archive and returns its trailer', async () => {
    const { text, sha256 } = await writeArchive([['stats.daily', [{ _id: 'a', daily: new Int32(1) }]]]);
    const { header, trailer } = await verifyArchive(Readable.from([text]));
    expect(header.collections.map((c) => c.name)).toEqual(['stats.daily']);
    expect(trailer).toEqual({ trailer: true, documents: 1, sha256 });
  });
});
