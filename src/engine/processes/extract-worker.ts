/**
 * Worker-thread entry for the parsers that can blow up on hostile input (pdf.js, mammoth, exceljs,
 * papaparse, htmlparser2, xmldom).
 * The pool that starts it enforces the heap limit and the timeout by terminating this thread.
 */
import { parentPort } from 'node:worker_threads';
import { toTransferable } from '#shared/errors.ts';
import { UNLOCKED_NOTE } from '#shared/password.ts';
import { csvWholeText, extractCsv, readCsv } from '../ingest/csv.ts';
import { docxWholeText, extractDocx, readDocx } from '../ingest/docx.ts';
import { extractHtml, htmlWholeText, readHtml } from '../ingest/html.ts';
import { extractImage, imageWholeText, readImageLocator } from '../ingest/image.ts';
import { DEFAULT_OCR_LANGUAGES } from '../ingest/ocr-languages.ts';
import { officeBytes } from '../ingest/office-crypto.ts';
import { extractPdf, pdfWholeText, readPdfLocator } from '../ingest/pdf.ts';
import { extractPptx, pptxWholeText, readPptx } from '../ingest/pptx.ts';
import type { Extraction, PageProgress } from '../ingest/types.ts';
import type { WorkerReply, WorkerRequest } from '../ingest/worker-protocol.ts';
import { extractXlsx, readXlsx, xlsxWholeText } from '../ingest/xlsx.ts';

/** An encrypted DOCX/XLSX/PPTX is decrypted first (docs/FORMATS.md [F12]); its extraction says so ([F14]). */
async function handle(
  req: WorkerRequest,
  beat: (progress?: PageProgress) => void,
): Promise<Extraction | string> {
  const label = req.op === 'extract' ? req.fileLabel : 'the file';
  const password = req.op === 'extract' ? req.password : undefined;
  const office = await officeBytes(req.bytes, req.format, password, label);
  const got = await parse({ ...req, bytes: office.bytes }, beat);
  if (!office.unlocked || typeof got === 'string') return got;
  return { ...got, health: [UNLOCKED_NOTE, ...got.health] };
}

function parse(req: WorkerRequest, beat: (progress?: PageProgress) => void): Promise<Extraction | string> {
  if (req.op === 'extract') {
    const langs = req.ocr ?? DEFAULT_OCR_LANGUAGES;
    if (req.format === 'pdf')
      return extractPdf(req.bytes, req.fileLabel, langs, beat, req.password, req.forceOcr === true);
    if (req.format === 'image') return extractImage(req.bytes, req.fileLabel, langs);
    if (req.format === 'docx') return extractDocx(req.bytes, req.fileLabel);
    if (req.format === 'csv') return extractCsv(req.bytes, req.fileLabel);
    if (req.format === 'html') return extractHtml(req.bytes, req.fileLabel);
    if (req.format === 'pptx') return extractPptx(req.bytes, req.fileLabel);
    return extractXlsx(req.bytes, req.fileLabel);
  }
  if (req.op === 'whole') {
    const langs = req.ocr ?? DEFAULT_OCR_LANGUAGES;
    if (req.format === 'pdf') return pdfWholeText(req.bytes, langs, req.forceOcr === true);
    if (req.format === 'image') return imageWholeText(req.bytes, langs);
    if (req.format === 'docx') return docxWholeText(req.bytes);
    if (req.format === 'csv') return csvWholeText(req.bytes);
    if (req.format === 'html') return htmlWholeText(req.bytes);
    if (req.format === 'pptx') return pptxWholeText(req.bytes);
    return xlsxWholeText(req.bytes);
  }
  if (req.format === 'pdf') return readPdfLocator(req.bytes, req.locator);
  if (req.format === 'image') return readImageLocator(req.bytes, req.locator);
  if (req.format === 'docx') return readDocx(req.bytes, req.locator);
  if (req.format === 'csv') return readCsv(req.bytes, req.locator);
  if (req.format === 'html') return readHtml(req.bytes, req.locator);
  if (req.format === 'pptx') return readPptx(req.bytes, req.locator);
  return readXlsx(req.bytes, req.locator);
}

const port = parentPort;
if (port) {
  port.on('message', async (msg: WorkerRequest & { id: number }) => {
    let reply: WorkerReply;
    try {
      const beat = (progress?: PageProgress) =>
        port.postMessage({ id: msg.id, beat: true, ...(progress ? { progress } : {}) } satisfies WorkerReply);
      reply = { id: msg.id, ok: true, value: await handle(msg, beat) };
    } catch (err) {
      reply = { id: msg.id, ok: false, error: toTransferable(err) };
    }
    port.postMessage(reply);
  });
}
