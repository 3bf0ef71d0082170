/** Data shapes shared by the engine and every surface. */
export type StorageKind = 'file' | 'section' | 'note' | 'entity';
export type FileFormat = 'md' | 'txt' | 'pdf' | 'docx' | 'xlsx' | 'csv' | 'html' | 'pptx' | 'image';

/** A region of a page or picture, [x0, y0, x1, y1] in pixels of the OCR'd image (docs/OCR.md [O5]). */
export type Bbox = [number, number, number, number];

/**
 * Where a section's text lives in its file. Reading a locator back from the raw bytes gives
 * exactly the section's body.
 * - text: byte range of the raw file (md, txt), plus 1-based inclusive line range.
 * - pdf: 1-based page and character range of that page's extracted text.
 * - xlsx: sheet name and 1-based inclusive row range (the header row is repeated in the text).
 * - docx: character range of the document's extracted text, plus line range.
 * - csv: 1-based inclusive record range (the header is record 1) and the raw byte range of those
 *   records ([F3] in docs/FORMATS.md).
 * - html: character range of the page's extracted main text, plus line range ([F6]).
 * - pptx: 1-based slide number, character range of the deck's extracted text, plus line range ([F9]).
 * - image: character range of the picture's OCR text, plus line range (docs/OCR.md [O5]).
 * A pdf or image locator whose text came from OCR names the languages (`ocr`, "eng+fra") and the
 * region it was read from (`bbox`), so it reads back the same text whatever the setting is now,
 * and the turn it was read at (`turn`, degrees clockwise; docs/OCR.md [O8]), so read-back reads
 * the picture once at that turn. A locator without `turn` was made before it was kept: read-back
 * tries the turns again.
 */
export type Locator =
  | { type: 'text'; byteStart: number; byteEnd: number; lineStart: number; lineEnd: number }
  | {
      type: 'pdf';
      page: number;
      charStart: number;
      charEnd: number;
      lineStart: number;
      lineEnd: number;
      bbox?: Bbox;
      ocr?: string;
      turn?: 0 | 90 | 180 | 270;
      /** Read by OCR because its file is read by OCR ("Read by OCR", docs/OCR.md [O9]), its text layer ignored. */
      forced?: true;
    }
  | { type: 'xlsx'; sheet: string; rowStart: number; rowEnd: number }
  | { type: 'docx'; charStart: number; charEnd: number; lineStart: number; lineEnd: number }
  | { type: 'csv'; rowStart: number; rowEnd: number; byteStart: number; byteEnd: number }
  | { type: 'html'; charStart: number; charEnd: number; lineStart: number; lineEnd: number }
  | {
      type: 'pptx';
      slide: number;
      charStart: number;
      charEnd: number;
      lineStart: number;
      lineEnd: number;
    }
  | {
      type: 'image';
      charStart: number;
      charEnd: number;
      lineStart: number;
      lineEnd: number;
      bbox?: Bbox;
      ocr: string;
      turn?: 0 | 90 | 180 | 270;
    };

export type Citation = {
  itemId: string;
  fileId: string;
  fileLabel: string;
  blob: string;
  locator: Locator | null;
  lineStart?: number;
  lineEnd?: number;
  page?: number;
  /** A connected repository's document: its path there and a commit that holds these bytes (docs/TREES.md [T13]). */
  repo?: { path: string; commit: string | null };
};

export type SearchHit = {
  id: string;
  label: string;
  storageKind: StorageKind;
  kind: string;
  score: number;
  body: string;
  scope: string;
  citation: Citation | null;
  /** How many other passages of the same source matched (the hit shows its best one). */
  more?: number;
  /** The best few of those passages, best first, cited, without their text. */
  also?: AlsoPassage[];
};

/** Another passage of a hit's source (docs/RETRIEVAL.md [R6]). */
export type AlsoPassage = { id: string; label: string; citation: Citation | null };

export type SearchResult = { semantic: boolean; hits: SearchHit[] };
