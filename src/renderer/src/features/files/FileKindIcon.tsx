import { File, FileCode, FileSpreadsheet, FileText, FileType, Presentation } from 'lucide-react';
import './files.css';

/** One icon per file format (or kind), so a long list scans by shape. */
export function FileKindIcon({
  kind,
  format,
  size = 15,
}: {
  kind: string;
  format: string | null;
  size?: number;
}) {
  const f = (format ?? kind).toLowerCase();
  if (f === 'pdf') return <FileType size={size} aria-hidden="true" className="kind-icon kind-icon--pdf" />;
  if (f === 'xlsx' || f === 'csv' || f === 'spreadsheet')
    return <FileSpreadsheet size={size} aria-hidden="true" className="kind-icon kind-icon--xlsx" />;
  if (f === 'docx' || f === 'word')
    return <FileText size={size} aria-hidden="true" className="kind-icon kind-icon--docx" />;
  if (f === 'pptx' || f === 'presentation')
    return <Presentation size={size} aria-hidden="true" className="kind-icon kind-icon--pptx" />;
  if (f === 'html') return <FileCode size={size} aria-hidden="true" className="kind-icon kind-icon--text" />;
  if (f === 'md' || f === 'markdown' || f === 'txt' || f === 'text')
    return <FileText size={size} aria-hidden="true" className="kind-icon kind-icon--text" />;
  return <File size={size} aria-hidden="true" className="kind-icon" />;
}
