/**
 * Audio helpers for the voice pipeline: reading a WAV header, joining per-sentence clips into one
 * file (WAV: the PCM of every part under one header; MP3: the frames one after another), and a
 * clip's duration. Pure functions over Buffers, shared by the offline synthesizer and the pipeline.
 */

export type WavFormat = {
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  byteRate: number;
  blockAlign: number;
};

export type ParsedWav = WavFormat & { dataOffset: number; dataLength: number; durationMs: number };

/** Reads a RIFF/WAVE header (any chunk order); throws on anything that is not a PCM WAV. */
export function parseWav(buf: Buffer): ParsedWav {
  if (buf.length < 12 || buf.toString("ascii", 0, 4) !== "RIFF" || buf.toString("ascii", 8, 12) !== "WAVE") {
    throw new Error("Not a RIFF/WAVE file");
  }
  let offset = 12;
  let format: WavFormat | null = null;
  while (offset + 8 <= buf.length) {
    const id = buf.toString("ascii", offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === "fmt ") {
      format = {
        audioFormat: buf.readUInt16LE(body),
        channels: buf.readUInt16LE(body + 2),
        sampleRate: buf.readUInt32LE(body + 4),
        byteRate: buf.readUInt32LE(body + 8),
        blockAlign: buf.readUInt16LE(body + 12),
        bitsPerSample: buf.readUInt16LE(body + 14),
      };
    } else if (id === "data") {
      if (!format) throw new Error("WAV data chunk before its fmt chunk");
      // Some writers leave the size at 0 or 0xFFFFFFFF while streaming: trust the file length then.
      const available = buf.length - body;
      const dataLength = size === 0 || size > available ? available : size;
      const durationMs = format.byteRate > 0 ? Math.round((dataLength / format.byteRate) * 1000) : 0;
      return { ...format, dataOffset: body, dataLength, durationMs };
    }
    offset = body + size + (size % 2);
  }
  throw new Error("WAV file without a data chunk");
}

/** A canonical 44-byte PCM header for `dataLength` bytes of audio. */
export function wavHeader(format: Pick<WavFormat, "channels" | "sampleRate" | "bitsPerSample">, dataLength: number): Buffer {
  const blockAlign = (format.channels * format.bitsPerSample) / 8;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + dataLength, 4);
  header.write("WAVE", 8, "ascii");
  header.write("fmt ", 12, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(format.channels, 22);
  header.writeUInt32LE(format.sampleRate, 24);
  header.writeUInt32LE(format.sampleRate * blockAlign, 28);
  header.writeUInt16LE(blockAlign, 32);
  header.writeUInt16LE(format.bitsPerSample, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(dataLength, 40);
  return header;
}

/** Joins WAV clips of the same format: every part's PCM under one new header. */
export function concatWav(parts: Buffer[]): Buffer {
  if (parts.length === 0) throw new Error("Nothing to join");
  if (parts.length === 1) return parts[0];
  const parsed = parts.map(parseWav);
  const first = parsed[0];
  for (const p of parsed) {
    if (p.channels !== first.channels || p.sampleRate !== first.sampleRate || p.bitsPerSample !== first.bitsPerSample) {
      throw new Error("Cannot join WAV clips with different formats");
    }
  }
  const pcm = parsed.map((p, i) => parts[i].subarray(p.dataOffset, p.dataOffset + p.dataLength));
  const dataLength = pcm.reduce((n, b) => n + b.length, 0);
  return Buffer.concat([wavHeader(first, dataLength), ...pcm]);
}

/** Length of a leading ID3v2 tag (0 when there is none). */
function id3Length(buf: Buffer): number {
  if (buf.length < 10 || buf.toString("latin1", 0, 3) !== "ID3") return 0;
  const size = ((buf[6] & 0x7f) << 21) | ((buf[7] & 0x7f) << 14) | ((buf[8] & 0x7f) << 7) | (buf[9] & 0x7f);
  return 10 + size + (buf[5] & 0x10 ? 10 : 0);
}

/**
 * Joins MP3 clips: MP3 is a sequence of self-contained frames, so the parts play back to back
 * when their frames follow one another. A leading ID3 tag is kept on the first part only.
 */
export function concatMp3(parts: Buffer[]): Buffer {
  if (parts.length <= 1) return parts[0] ?? Buffer.alloc(0);
  return Buffer.concat(parts.map((part, i) => (i === 0 ? part : part.subarray(id3Length(part)))));
}

/** Joins clips of one content type (audio/wav or audio/mpeg). */
export function concatAudio(parts: Buffer[], contentType: string): Buffer {
  return contentType === "audio/wav" ? concatWav(parts) : concatMp3(parts);
}

/** A clip's duration in ms when it can be read from the bytes (WAV), else null. */
export function audioDurationMs(audio: Buffer, contentType: string): number | null {
  if (contentType !== "audio/wav") return null;
  try {
    return parseWav(audio).durationMs;
  } catch {
    return null;
  }
}
