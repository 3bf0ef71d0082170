import { AlertCircle, ChevronLeft, ChevronRight, Minus, MoveHorizontal, Plus } from 'lucide-react';
import type { PDFDocumentLoadingTask, PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist';
import {
  type KeyboardEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { Bbox } from '#shared/types.ts';
import { call } from '../../lib/api.ts';
import { bytesOfBase64 } from '../../lib/base64.ts';
import { bboxToViewport, type Matrix, type Rect, rectsForRange } from './pdf-geometry.ts';
import '../../components/notice.css';
import './dossier.css';

/** What is highlighted on the cited page: characters of its text, or an OCR box (docs/OCR.md [O5]). */
export type PdfTarget = {
  page: number;
  /** Characters of the page's text ([F15] in docs/FORMATS.md); null for an OCR'd page. */
  range: { start: number; end: number } | null;
  /** The OCR box, in pixels of the page's largest image. */
  bbox: Bbox | null;
};

export type PdfPageViewProps = {
  /** The file, or the PDF passage, whose bytes items.original answers. */
  itemId: string;
  /** The content hash of the bytes (the citation's `blob`): passages of one file share one download. */
  blob: string | null;
  label: string;
  target: PdfTarget;
  /** Changes each time the dossier is (re)opened, so the highlight is scrolled to again. */
  scrollKey: string;
  /** Back to the text view. */
  onShowText: () => void;
};

type Loaded = { task: PDFDocumentLoadingTask; doc: PDFDocumentProxy };
type Status = { state: 'loading' } | { state: 'ready' } | { state: 'error'; reason: string };

const ZOOMS = [0.5, 0.67, 0.8, 1, 1.25, 1.5, 2, 3, 4];
/** Room left beside the page when it fits the pane's width. */
const FIT_MARGIN = 32;

function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isCancel(err: unknown): boolean {
  return err instanceof Error && err.name === 'RenderingCancelledException';
}

/**
 * The last PDF's bytes, by content hash, when they are not large: another passage of the same file
 * does not fetch them again, and a closed dossier keeps at most this much.
 */
let lastBytes: { blob: string; bytes: Uint8Array } | null = null;
const KEEP_AT_MOST = 32 * 1024 * 1024;

async function bytesOf(itemId: string, blob: string | null): Promise<Uint8Array> {
  // pdf.js takes the buffer it is given (it moves to the worker): it gets a copy of a kept one.
  if (blob && lastBytes?.blob === blob) return lastBytes.bytes.slice();
  const original = await call('items.original', { id: itemId });
  const bytes = bytesOfBase64(original.base64);
  lastBytes = bytes.length <= KEEP_AT_MOST ? { blob: original.blob, bytes: bytes.slice() } : null;
  return bytes;
}

type Pdfjs = typeof import('./pdfjs.ts');
let pdfjsModule: Promise<Pdfjs> | null = null;
const loadPdfjs = (): Promise<Pdfjs> => {
  pdfjsModule ??= import('./pdfjs.ts');
  return pdfjsModule;
};

type ToolButtonProps = {
  label: string;
  title: string;
  onClick: () => void;
  disabled?: boolean;
  pressed?: boolean;
  children: ReactNode;
};

/** One icon button of the page view's toolbar. */
function ToolButton({ label, title, onClick, disabled, pressed, children }: ToolButtonProps) {
  return (
    <button
      type="button"
      className="icon-button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      aria-pressed={pressed}
      title={title}
    >
      {children}
    </button>
  );
}

/** The highlight's boxes on a drawn page: characters through the text items, an OCR box through its image. */
async function highlightOf(
  pdfjs: Pdfjs,
  page: PDFPageProxy,
  transform: Matrix,
  target: PdfTarget,
): Promise<Rect[]> {
  if (target.bbox) {
    const image = pdfjs.largestImageOf(await page.getOperatorList());
    return image ? [bboxToViewport(target.bbox, image, transform)] : [];
  }
  if (!target.range) return [];
  const content = await page.getTextContent();
  return rectsForRange(content.items, transform, target.range.start, target.range.end);
}

/**
 * A PDF citation on its page ([F15] in docs/FORMATS.md): the page drawn by pdf.js on a canvas
 * (sharp at the screen's pixel ratio), the cited characters or OCR box highlighted over it and
 * scrolled to; previous/next page, a page number, zoom in/out and fit to width, by button and by
 * keyboard (PageUp/PageDown, + and -). The document and its worker end when the view goes.
 */
export function PdfPageView({ itemId, blob, label, target: given, scrollKey, onShowText }: PdfPageViewProps) {
  // The same target from one render to the next, whatever object it comes in.
  const targetKey = JSON.stringify(given);
  const target = useMemo(() => JSON.parse(targetKey) as PdfTarget, [targetKey]);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [pages, setPages] = useState(0);
  const [page, setPage] = useState(target.page);
  const [pageInput, setPageInput] = useState(String(target.page));
  /** null: fit the pane's width. */
  const [zoom, setZoom] = useState<number | null>(null);
  const [scale, setScale] = useState(1);
  const [status, setStatus] = useState<Status>({ state: 'loading' });
  const [rects, setRects] = useState<Rect[]>([]);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [paneWidth, setPaneWidth] = useState(0);
  const pane = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const firstMark = useRef<HTMLDivElement>(null);
  const scrolledFor = useRef<string | null>(null);
  // The document is opened once per bytes (a file's passages share them), asked for by this item's id.
  const source = blob ?? itemId;
  const askFor = useRef(itemId);
  askFor.current = itemId;

  // A new citation goes to its page.
  useEffect(() => {
    void scrollKey;
    setPage(target.page);
    setPageInput(String(target.page));
    scrolledFor.current = null;
  }, [target.page, scrollKey]);

  // The bytes, then the document; destroying the loading task ends both the document and its worker.
  useEffect(() => {
    let gone = false;
    let task: PDFDocumentLoadingTask | null = null;
    setLoaded(null);
    setStatus({ state: 'loading' });
    (async () => {
      const [bytes, pdfjs] = await Promise.all([
        bytesOf(askFor.current, source === askFor.current ? null : source),
        loadPdfjs(),
      ]);
      if (gone) return;
      task = await pdfjs.openPdf(bytes);
      if (gone) {
        void task.destroy();
        return;
      }
      const doc = await task.promise;
      if (gone) return;
      setPages(doc.numPages);
      setLoaded({ task, doc });
    })().catch((err: unknown) => {
      if (!gone) setStatus({ state: 'error', reason: reasonOf(err) });
    });
    return () => {
      gone = true;
      void task?.destroy();
    };
  }, [source]);

  useLayoutEffect(() => {
    const el = pane.current;
    if (!el) return;
    const measure = () => setPaneWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // Draw the page (and find the highlight on the cited one) whenever the page, zoom or width change.
  useEffect(() => {
    if (!loaded || !canvas.current || paneWidth === 0) return;
    const el = canvas.current;
    let gone = false;
    let render: RenderTask | null = null;
    let proxy: PDFPageProxy | null = null;
    setStatus({ state: 'loading' });
    (async () => {
      const pdfjs = await loadPdfjs();
      if (page < 1 || page > loaded.doc.numPages)
        throw new Error(`there is no page ${page} (the PDF has ${loaded.doc.numPages})`);
      proxy = await loaded.doc.getPage(page);
      if (gone) return;
      const natural = proxy.getViewport({ scale: 1 });
      const s = zoom ?? Math.max(0.25, (paneWidth - FIT_MARGIN) / natural.width);
      const viewport = proxy.getViewport({ scale: s });
      const ratio = window.devicePixelRatio || 1;
      el.width = Math.floor(viewport.width * ratio);
      el.height = Math.floor(viewport.height * ratio);
      const context = el.getContext('2d');
      if (!context) throw new Error('the canvas has no 2D context');
      setScale(s);
      setSize({ width: viewport.width, height: viewport.height });
      render = proxy.render({
        canvas: el,
        canvasContext: context,
        viewport,
        transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0],
      });
      await render.promise;
      if (gone) return;
      const transform = viewport.transform as unknown as Matrix;
      const boxes = page === target.page ? await highlightOf(pdfjs, proxy, transform, target) : [];
      if (gone) return;
      setRects(boxes);
      setStatus({ state: 'ready' });
    })().catch((err: unknown) => {
      if (!gone && !isCancel(err)) setStatus({ state: 'error', reason: reasonOf(err) });
    });
    return () => {
      gone = true;
      render?.cancel();
      proxy?.cleanup();
    };
  }, [loaded, page, zoom, paneWidth, target]);

  // Once the cited page is drawn, its highlight is scrolled into view (again for each new opening).
  useEffect(() => {
    if (status.state !== 'ready' || page !== target.page) return;
    if (scrolledFor.current === scrollKey) return;
    scrolledFor.current = scrollKey;
    if (firstMark.current) firstMark.current.scrollIntoView({ block: 'center', inline: 'nearest' });
    else pane.current?.scrollTo({ top: 0 });
  }, [status, page, target.page, scrollKey]);

  const goTo = useCallback(
    (next: number) => {
      const n = Math.min(Math.max(1, Math.round(next)), Math.max(1, pages));
      setPage(n);
      setPageInput(String(n));
    },
    [pages],
  );
  /** The next zoom step up or down from the scale the page is drawn at (fit-width's included). */
  const zoomBy = useCallback(
    (step: 1 | -1) => {
      const up = ZOOMS.find((z) => z > scale + 0.001) ?? ZOOMS[ZOOMS.length - 1];
      const down = ZOOMS.findLast((z) => z < scale - 0.001) ?? ZOOMS[0];
      const pick = step > 0 ? up : down;
      if (pick) setZoom(pick);
    },
    [scale],
  );

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // The page number box types its own keys; Ctrl/Cmd with + or - is the window's zoom.
    if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'PageDown') goTo(page + 1);
    else if (e.key === 'PageUp') goTo(page - 1);
    else if (e.key === '+' || e.key === '=') zoomBy(1);
    else if (e.key === '-') zoomBy(-1);
    else return;
    e.preventDefault();
  };

  const where = pages > 0 ? `Page ${page} of ${pages}` : `Page ${page}`;
  const error = status.state === 'error' ? status.reason : null;

  return (
    <section className="pdf-view" aria-label={`Page view of ${label}`} onKeyDown={onKeyDown}>
      <div className="pdf-view__bar" role="toolbar" aria-label="Page and zoom">
        <ToolButton
          label="Previous page"
          title="Previous page (PageUp)"
          onClick={() => goTo(page - 1)}
          disabled={page <= 1}
        >
          <ChevronLeft size={15} aria-hidden="true" />
        </ToolButton>
        <form
          className="pdf-view__page"
          onSubmit={(e) => {
            e.preventDefault();
            const n = Number(pageInput);
            if (Number.isFinite(n)) goTo(n);
            else setPageInput(String(page));
          }}
        >
          <input
            className="input pdf-view__page-input"
            inputMode="numeric"
            aria-label="Page number"
            value={pageInput}
            onChange={(e) => setPageInput(e.target.value.replace(/\D/g, ''))}
            onBlur={() => setPageInput(String(page))}
          />
          <span className="muted">of {pages || '…'}</span>
        </form>
        <ToolButton
          label="Next page"
          title="Next page (PageDown)"
          onClick={() => goTo(page + 1)}
          disabled={pages === 0 || page >= pages}
        >
          <ChevronRight size={15} aria-hidden="true" />
        </ToolButton>
        <span className="pdf-view__sep" aria-hidden="true" />
        <ToolButton label="Zoom out" title="Zoom out (-)" onClick={() => zoomBy(-1)}>
          <Minus size={15} aria-hidden="true" />
        </ToolButton>
        <span className="pdf-view__zoom muted" title="Zoom">
          {Math.round(scale * 100)}%
        </span>
        <ToolButton label="Zoom in" title="Zoom in (+)" onClick={() => zoomBy(1)}>
          <Plus size={15} aria-hidden="true" />
        </ToolButton>
        <ToolButton
          label="Fit to width"
          title="Fit to width"
          onClick={() => setZoom(null)}
          pressed={zoom === null}
        >
          <MoveHorizontal size={15} aria-hidden="true" />
        </ToolButton>
        <button
          type="button"
          className="button button--ghost button--small pdf-view__text"
          onClick={onShowText}
        >
          Text
        </button>
      </div>
      {error ? (
        <div className="notice notice--error pdf-view__error" role="alert">
          <AlertCircle size={16} aria-hidden="true" className="notice__icon" />
          <p className="notice__body">
            Could not render page {page} of {label}: {error}
          </p>
          <div className="notice__action">
            <button type="button" className="button" onClick={onShowText}>
              Show the text
            </button>
          </div>
        </div>
      ) : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the page scrolls on its own and takes PageUp/PageDown, + and - */}
      <div ref={pane} className="pdf-view__pane" tabIndex={0} aria-busy={status.state === 'loading'}>
        {status.state === 'loading' ? (
          <p className="pdf-view__loading muted" role="status">
            Loading page {page} of {label}…
          </p>
        ) : null}
        <div
          className="pdf-view__sheet"
          hidden={error !== null}
          style={size.width ? { width: size.width, height: size.height } : undefined}
        >
          <canvas
            ref={canvas}
            className="pdf-view__canvas"
            role="img"
            aria-label={`${where}, ${label}`}
            style={size.width ? { width: size.width, height: size.height } : undefined}
          />
          {status.state === 'ready'
            ? rects.map((r, i) => (
                <div
                  // biome-ignore lint/suspicious/noArrayIndexKey: boxes of one drawing, never reordered
                  key={i}
                  ref={i === 0 ? firstMark : undefined}
                  className="pdf-view__mark"
                  title="Cited"
                  style={{ left: r.left, top: r.top, width: r.width, height: r.height }}
                />
              ))
            : null}
        </div>
      </div>
    </section>
  );
}
