/**
 * A PDF of scanned pages for OCR tests: each page shows one JPEG across its width and has no text
 * layer, or the text given as `layer` (drawn invisibly, render mode 3, like an OCR layer). With
 * `bits` the picture is a black-and-white one instead, one bit a pixel (rows padded to a byte, a
 * set bit white), as a fax or JBIG2 scan decodes; `jpeg` is then not used.
 */
export type ScanPage = { jpeg: Uint8Array; width: number; height: number; layer?: string; bits?: Uint8Array };

const enc = new TextEncoder();

export function buildScanPdf(pages: ScanPage[]): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let length = 0;
  const push = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === 'string' ? enc.encode(chunk) : chunk;
    parts.push(bytes);
    length += bytes.length;
  };
  const object = (n: number, body: (string | Uint8Array)[]) => {
    offsets[n - 1] = length;
    push(`${n} 0 obj\n`);
    for (const b of body) push(b);
    push('\nendobj\n');
  };
  push('%PDF-1.4\n');
  const kids = pages.map((_, i) => `${4 + 3 * i} 0 R`).join(' ');
  object(1, ['<< /Type /Catalog /Pages 2 0 R >>']);
  object(2, [`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`]);
  object(3, ['<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>']);
  pages.forEach((p, i) => {
    const [page, content, image] = [4 + 3 * i, 5 + 3 * i, 6 + 3 * i];
    const h = Math.round((612 * p.height) / p.width);
    const text = p.layer ? `BT 3 Tr /F1 10 Tf 20 ${h - 20} Td (${p.layer}) Tj ET` : '';
    const ops = `q 612 0 0 ${h} 0 0 cm /Im0 Do Q ${text}`;
    object(page, [
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 ${h}] /Resources << /XObject << /Im0 ${image} 0 R >> /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`,
    ]);
    object(content, [`<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`]);
    const picture = p.bits
      ? { dict: '/ColorSpace /DeviceGray /BitsPerComponent 1', data: p.bits }
      : { dict: '/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode', data: p.jpeg };
    object(image, [
      `<< /Type /XObject /Subtype /Image /Width ${p.width} /Height ${p.height} ${picture.dict} /Length ${picture.data.length} >>\nstream\n`,
      picture.data,
      '\nendstream',
    ]);
  });
  const xref = length;
  const count = 3 + 3 * pages.length;
  push(`xref\n0 ${count + 1}\n0000000000 65535 f \n`);
  for (const off of offsets) push(`${String(off).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${count + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`);
  const out = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
