/** A minimal valid PDF (Helvetica text, correct xref) built in memory for tests. */

function escapePdf(s: string): string {
  return s.replace(/[\\()]/g, (c) => `\\${c}`);
}

function pageStream(lines: string[]): string {
  const ops = lines.map((l, i) => `${i === 0 ? '' : '0 -14 Td '}(${escapePdf(l)}) Tj`);
  return `BT /F1 10 Tf 40 760 Td ${ops.join('\n')} ET`;
}

/** PDF date strings for the /Info dictionary, e.g. `D:20220310091500+01'00'`. */
export type PdfDates = { CreationDate?: string; ModDate?: string };

/**
 * Each page is a list of lines (ASCII). Page objects: page i uses objects 4+2i (page) and 5+2i
 * (content). A title alone comes with CreationDate D:20240315120000Z; `dates` replaces that.
 */
export function buildPdf(pages: string[][], title?: string, dates?: PdfDates): Uint8Array {
  const objects: string[] = [];
  const kids = pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  for (const [i, lines] of pages.entries()) {
    const stream = pageStream(lines);
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * i} 0 R >>`,
    );
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  }
  const stated = dates ?? (title ? { CreationDate: 'D:20240315120000Z' } : {});
  const entries = [
    title ? `/Title (${escapePdf(title)})` : '',
    ...Object.entries(stated).map(([key, value]) => `/${key} (${escapePdf(value)})`),
  ].filter(Boolean);
  const info = entries.length > 0 ? `<< ${entries.join(' ')} >>` : null;
  if (info) objects.push(info);
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`;
  const infoRef = info ? ` /Info ${objects.length} 0 R` : '';
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${infoRef} >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(out);
}
