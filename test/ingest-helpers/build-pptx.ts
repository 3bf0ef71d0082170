/** PPTX inputs built in memory (jszip) for tests: slides with a title, body, tables and notes. */
import JSZip from 'jszip';

export type SlideSpec = {
  title?: string;
  body?: string[];
  table?: string[][];
  notes?: string[];
  hidden?: boolean;
  /** Shape-tree XML added as it is (e.g. an mc:AlternateContent). */
  raw?: string;
};

const P = 'http://schemas.openxmlformats.org/presentationml/2006/main';
const A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
const R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function paras(lines: string[]): string {
  return lines.map((l) => `<a:p><a:r><a:rPr lang="en-US"/><a:t>${esc(l)}</a:t></a:r></a:p>`).join('');
}

function shape(lines: string[], ph?: string): string {
  const nv = ph ? `<p:nvPr><p:ph type="${ph}"/></p:nvPr>` : '<p:nvPr/>';
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="s"/><p:cNvSpPr/>${nv}</p:nvSpPr><p:spPr/><p:txBody><a:bodyPr/>${paras(lines)}</p:txBody></p:sp>`;
}

function table(rows: string[][]): string {
  const trs = rows
    .map(
      (r) =>
        `<a:tr h="1">${r.map((c) => `<a:tc><a:txBody><a:bodyPr/>${paras([c])}</a:txBody></a:tc>`).join('')}</a:tr>`,
    )
    .join('');
  return `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="t"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm/><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl>${trs}</a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
}

function tree(inner: string): string {
  return `<p:cSld><p:spTree><p:nvGrpSpPr><p:cNvPr id="1" name=""/><p:cNvGrpSpPr/><p:nvPr/></p:nvGrpSpPr><p:grpSpPr/>${inner}</p:spTree></p:cSld>`;
}

function slideXml(s: SlideSpec): string {
  const parts = [
    s.title ? shape([s.title], 'title') : '',
    s.body ? `<p:grpSp>${shape(s.body)}</p:grpSp>` : '',
    s.table ? table(s.table) : '',
    shape(['slidenumber'], 'sldNum'),
    s.raw ?? '',
  ];
  const show = s.hidden ? ' show="0"' : '';
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<p:sld xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"${show}>${tree(parts.join(''))}</p:sld>`;
}

function notesXml(lines: string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><p:notes xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}">${tree(shape(['slide image'], 'sldImg') + shape(lines, 'body'))}</p:notes>`;
}

function rels(list: [string, string, string][]): string {
  const items = list.map(
    ([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`,
  );
  return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${PKG}">${items.join('')}</Relationships>`;
}

/** A deck; `omit` leaves parts out of the archive (a damaged deck). */
export async function buildPptx(slides: SlideSpec[], omit: string[] = []): Promise<Uint8Array> {
  const zip = new JSZip();
  const files: Record<string, string> = {
    '[Content_Types].xml':
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    '_rels/.rels': rels([['rId1', 'officeDocument', 'ppt/presentation.xml']]),
    'ppt/presentation.xml': `<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:a="${A}" xmlns:r="${R}" xmlns:p="${P}"><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 2}"/>`).join('')}</p:sldIdLst></p:presentation>`,
    'ppt/_rels/presentation.xml.rels': rels(
      slides.map((_, i) => [`rId${i + 2}`, 'slide', `slides/slide${i + 1}.xml`]),
    ),
  };
  slides.forEach((s, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = slideXml(s);
    if (s.notes) {
      files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = rels([
        ['rId1', 'notesSlide', `../notesSlides/notesSlide${i + 1}.xml`],
      ]);
      files[`ppt/notesSlides/notesSlide${i + 1}.xml`] = notesXml(s.notes);
    }
  });
  for (const [name, text] of Object.entries(files)) if (!omit.includes(name)) zip.file(name, text);
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}
