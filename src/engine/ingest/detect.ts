/** Format detection for ADD: content (magic bytes) first, then the name. Synchronous and cheap. */
import { MAX_FILE_BYTES } from '#shared/constants.ts';
import { AppError } from '#shared/errors.ts';
import type { FileFormat } from '#shared/types.ts';
import { looksDelimited } from './delimited.ts';
import { isEncryptedOffice } from './office-crypto.ts';
import { decodeText, detectEncoding } from './text-decode.ts';
import type { DetectResult } from './types.ts';
import { readZipDirectory } from './zip-directory.ts';

const CFB_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const PDF_MAGIC = '%PDF-';
const HEAD_BYTES = 1024;

type Magic = 'pdf' | 'docx' | 'xlsx' | 'pptx';

const KIND: Record<Magic, string> = {
  pdf: 'a PDF',
  docx: 'a Word document',
  xlsx: 'an Excel workbook',
  pptx: 'a PowerPoint presentation',
};
/** Extensions that agree with each content-detected format. */
const NAMES: Record<Magic, string[]> = {
  pdf: ['pdf'],
  docx: ['docx', 'docm'],
  xlsx: ['xlsx', 'xlsm'],
  pptx: ['pptx', 'pptm'],
};
const CSV_NAMES = ['csv', 'tsv'];
const HTML_NAMES = ['html', 'htm', 'xhtml'];
/** [F5]: what a saved page starts with, after any BOM, whitespace and comments. */
const HTML_START = /^(?:\s|<!--[\s\S]*?-->)*<(?:!doctype\s+html|html[\s>])/i;

function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

function hasPrefix(bytes: Uint8Array, magic: number[]): boolean {
  return magic.every((b, i) => bytes[i] === b);
}

function head(bytes: Uint8Array): string {
  return new TextDecoder('latin1').decode(bytes.subarray(0, HEAD_BYTES));
}

function refuse(reason: string): DetectResult {
  return { ok: false, reason };
}

function byContent(format: Magic, ext: string, extra: string[] = []): DetectResult {
  if (NAMES[format].includes(ext)) return { ok: true, format, health: extra };
  const name = ext ? `named .${ext}` : 'has no extension';
  return { ok: true, format, health: [`${name} but the content is ${KIND[format]}`, ...extra] };
}

function damagedZip(ext: string, why: string): DetectResult {
  const names: Record<string, string> = {
    docx: 'Word document',
    xlsx: 'Excel workbook',
    pptx: 'PowerPoint presentation',
  };
  const what = names[ext] ?? 'ZIP archive';
  return refuse(`corrupt or truncated ${what}: ${why}`);
}

function fromZip(bytes: Uint8Array, ext: string): DetectResult {
  let names: string[];
  try {
    names = readZipDirectory(bytes).map((e) => e.name);
  } catch (err) {
    return damagedZip(ext, err instanceof Error ? err.message : String(err));
  }
  if (names.includes('word/document.xml')) {
    return byContent('docx', ext, ext === 'docm' ? ['macro-enabled document: macros are ignored'] : []);
  }
  if (names.includes('xl/workbook.xml')) {
    return byContent('xlsx', ext, ext === 'xlsm' ? ['macro-enabled workbook: macros are ignored'] : []);
  }
  if (names.includes('ppt/presentation.xml')) {
    return byContent('pptx', ext, ext === 'pptm' ? ['macro-enabled presentation: macros are ignored'] : []);
  }
  if (names.some((n) => n.startsWith('word/')))
    return refuse('an incomplete Word document (word/document.xml is missing)');
  if (names.some((n) => n.startsWith('xl/')))
    return refuse('an incomplete Excel workbook (xl/workbook.xml is missing)');
  if (names.some((n) => n.startsWith('ppt/')))
    return refuse('an incomplete PowerPoint presentation (ppt/presentation.xml is missing)');
  return refuse('a ZIP archive that is not a Word, Excel or PowerPoint document');
}

/**
 * docs/FORMATS.md [F11]: an OLE container holding an encrypted OOXML package is a password-protected
 * DOCX, XLSX or PPTX, told apart by its name alone (what is inside cannot be read without the
 * password); it is added and needs its password to be indexed. Any other OLE file is an old binary
 * Office document, which Org Brain does not read.
 */
function fromCfb(bytes: Uint8Array, ext: string): DetectResult {
  if (!isEncryptedOffice(bytes)) {
    return refuse('an old binary Office document (.doc, .xls or .ppt): save it as .docx, .xlsx or .pptx');
  }
  const format = (['docx', 'xlsx', 'pptx'] as const).find((f) => NAMES[f].includes(ext));
  if (!format) {
    const name = ext ? `named .${ext}` : 'with no extension';
    return refuse(
      `a password-protected Office document ${name}: rename it .docx, .xlsx or .pptx to say which it is`,
    );
  }
  return { ok: true, format, health: [] };
}

function fromText(bytes: Uint8Array, format: FileFormat, extra: string[] = []): DetectResult {
  try {
    return { ok: true, format, health: [...extra, ...detectEncoding(bytes).health] };
  } catch (err) {
    if (err instanceof AppError) return refuse(err.message);
    throw err;
  }
}

function unsupported(ext: string): DetectResult {
  const what = ext ? `.${ext}` : 'no extension';
  return refuse(
    `unsupported file type ${what} (Org Brain reads .md, .txt, .csv, .tsv, .html, .pdf, .docx, .xlsx, .pptx and PNG, JPEG, TIFF or WebP pictures)`,
  );
}

/** [F1], [F5]: text named neither .csv nor .html that is clearly a table or a saved page. */
function textByContent(bytes: Uint8Array, ext: string): { format: FileFormat; note: string } | null {
  let text: string;
  try {
    text = decodeText(bytes.subarray(0, 65_536)).text;
  } catch {
    return null;
  }
  const name = ext ? `named .${ext}` : 'has no extension';
  if (HTML_START.test(text)) return { format: 'html', note: `${name} but the content is HTML` };
  if (looksDelimited(text)) return { format: 'csv', note: `${name} but the content is a delimited table` };
  return null;
}

/** Pictures read by OCR (docs/OCR.md [O3]); the extensions that agree with each. */
const IMAGE_NAMES: Record<string, string[]> = {
  PNG: ['png'],
  JPEG: ['jpg', 'jpeg', 'jpe', 'jfif'],
  TIFF: ['tif', 'tiff'],
  WebP: ['webp'],
};
const HEIC_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1'];
const NO_HEIC = 'a HEIC/HEIF photo: Org Brain has no HEIC decoder (export it as JPEG or PNG)';

function imageKind(bytes: Uint8Array): string | null {
  if (hasPrefix(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'PNG';
  if (hasPrefix(bytes, [0xff, 0xd8, 0xff])) return 'JPEG';
  if (hasPrefix(bytes, [0x49, 0x49, 0x2a, 0x00]) || hasPrefix(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return 'TIFF';
  const tag = (from: number) => new TextDecoder('latin1').decode(bytes.subarray(from, from + 4));
  if (tag(0) === 'RIFF' && tag(8) === 'WEBP') return 'WebP';
  if (tag(4) === 'ftyp' && HEIC_BRANDS.includes(tag(8))) return 'HEIC';
  return null;
}

function fromImage(bytes: Uint8Array, ext: string): DetectResult | null {
  const kind = imageKind(bytes);
  if (!kind) return null;
  if (kind === 'HEIC') return refuse(NO_HEIC);
  if (IMAGE_NAMES[kind]?.includes(ext)) return { ok: true, format: 'image', health: [] };
  const name = ext ? `named .${ext}` : 'has no extension';
  return { ok: true, format: 'image', health: [`${name} but the content is a ${kind} image`] };
}

function fromName(bytes: Uint8Array, ext: string): DetectResult {
  if (ext === 'heic' || ext === 'heif') return refuse(NO_HEIC);
  if (Object.values(IMAGE_NAMES).flat().includes(ext))
    return refuse(`named .${ext} but the content is not a PNG, JPEG, TIFF or WebP image`);
  if (ext === 'md' || ext === 'markdown') return fromText(bytes, 'md');
  if (CSV_NAMES.includes(ext)) return fromText(bytes, 'csv');
  if (HTML_NAMES.includes(ext)) return fromText(bytes, 'html');
  if (ext === 'txt' || ext === '') {
    const found = textByContent(bytes, ext);
    if (found) return fromText(bytes, found.format, [found.note]);
    if (ext === 'txt') return fromText(bytes, 'txt');
  }
  // pdf.js repairs files whose header is missing; accept them when the name and objects agree.
  if (ext === 'pdf' && /\d+\s+\d+\s+obj\b/.test(head(bytes))) {
    return { ok: true, format: 'pdf', health: ['no %PDF- header: read as a PDF because of its name'] };
  }
  if (ext === 'pdf' || ext === 'docx' || ext === 'xlsx' || ext === 'pptx')
    return refuse(`named .${ext} but the content is not ${KIND[ext]}`);
  return unsupported(ext);
}

export function detectFormat(bytes: Uint8Array, fileName: string): DetectResult {
  if (bytes.length === 0) return refuse('empty file (0 bytes)');
  if (bytes.length > MAX_FILE_BYTES) {
    const mb = (bytes.length / (1024 * 1024)).toFixed(1).replace(/\.0$/, '');
    return refuse(`too large: ${mb} MB (the limit is ${MAX_FILE_BYTES / (1024 * 1024)} MB)`);
  }
  const ext = extensionOf(fileName);
  if (head(bytes).includes(PDF_MAGIC)) return byContent('pdf', ext);
  if (hasPrefix(bytes, ZIP_MAGIC)) return fromZip(bytes, ext);
  if (hasPrefix(bytes, CFB_MAGIC)) return fromCfb(bytes, ext);
  return fromImage(bytes, ext) ?? fromName(bytes, ext);
}
