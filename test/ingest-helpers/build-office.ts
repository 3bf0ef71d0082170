/** DOCX (jszip) and XLSX (exceljs) inputs built in memory for tests. */
import ExcelJS from 'exceljs';
import JSZip from 'jszip';

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
</Types>`;

const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

const DOC_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>`;

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${W}">
<w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading2"><w:name w:val="heading 2"/></w:style>
</w:styles>`;

/** A paragraph: plain text, or { heading: 1|2, text }, or { table: rows of cells }. */
export type DocBlock = string | { heading: 1 | 2; text: string } | { table: string[][] };

function xmlEscape(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function para(text: string, style?: string): string {
  const ppr = style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : '';
  return `<w:p>${ppr}<w:r><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r></w:p>`;
}

function blockXml(b: DocBlock): string {
  if (typeof b === 'string') return para(b);
  if ('heading' in b) return para(b.text, `Heading${b.heading}`);
  const rows = b.table.map((r) => `<w:tr>${r.map((c) => `<w:tc>${para(c)}</w:tc>`).join('')}</w:tr>`);
  return `<w:tbl>${rows.join('')}</w:tbl>`;
}

/** Core properties (`docProps/core.xml`) as Word writes them: W3CDTF dates. */
export type CoreDates = { created?: string; modified?: string };

function coreXml(dates: CoreDates): string {
  const el = (name: string, value: string | undefined) =>
    value ? `<dcterms:${name} xsi:type="dcterms:W3CDTF">${value}</dcterms:${name}>` : '';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><cp:lastModifiedBy>tester</cp:lastModifiedBy>${el('created', dates.created)}${el('modified', dates.modified)}</cp:coreProperties>`;
}

/** `parts` adds raw parts (e.g. `word/header1.xml`) to the package as given. */
export async function buildDocx(
  blocks: DocBlock[],
  dates?: CoreDates,
  parts: Record<string, string> = {},
): Promise<Uint8Array> {
  const zip = new JSZip();
  zip.file('[Content_Types].xml', CONTENT_TYPES);
  zip.file('_rels/.rels', ROOT_RELS);
  if (dates) zip.file('docProps/core.xml', coreXml(dates));
  zip.file('word/_rels/document.xml.rels', DOC_RELS);
  zip.file('word/styles.xml', STYLES);
  const body = blocks.map(blockXml).join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
  );
  for (const [name, text] of Object.entries(parts)) zip.file(name, text);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** A ZIP with arbitrary entries (e.g. neither Word nor Excel). */
export async function buildZip(files: Record<string, string>): Promise<Uint8Array> {
  const zip = new JSZip();
  for (const [name, text] of Object.entries(files)) zip.file(name, text);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** Rewrites the declared uncompressed size of one central-directory entry (a lying zip bomb). */
export function patchDeclaredSize(zip: Uint8Array, entryName: string, size: number): Uint8Array {
  const out = new Uint8Array(zip);
  const dv = new DataView(out.buffer);
  const name = new TextEncoder().encode(entryName);
  for (let p = 0; p + 46 < out.length; p++) {
    if (dv.getUint32(p, true) !== 0x02014b50) continue;
    const len = dv.getUint16(p + 28, true);
    if (len === name.length && name.every((b, i) => out[p + 46 + i] === b)) {
      dv.setUint32(p + 24, size, true);
      return out;
    }
  }
  throw new Error(`no central directory entry ${entryName}`);
}

export type SheetSpec = {
  name: string;
  rows: (string | number | Date | null)[][];
  state?: 'visible' | 'hidden' | 'veryHidden';
};

export async function buildXlsx(
  sheets: SheetSpec[],
  title?: string,
  dates?: { created?: Date; modified?: Date },
): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  if (title) wb.title = title;
  if (dates?.created) wb.created = dates.created;
  if (dates?.modified) wb.modified = dates.modified;
  for (const spec of sheets) {
    const ws = wb.addWorksheet(spec.name, { state: spec.state ?? 'visible' });
    for (const row of spec.rows) ws.addRow(row);
  }
  const buf = await wb.xlsx.writeBuffer();
  return new Uint8Array(buf as ArrayBuffer);
}
