/**
 * Settings → Indexing → OCR language ([O2] in docs/OCR.md): what scans and pictures are read in,
 * chosen from the languages whose data is installed. Applies to files indexed from then on.
 */
import { useState } from 'react';
import { useStatus } from '../../app/status-context.ts';

/** Tesseract's language codes, named for people; an unknown code shows as itself. */
const NAMES: Record<string, string> = {
  eng: 'English',
  deu: 'German',
  fra: 'French',
  spa: 'Spanish',
  ita: 'Italian',
  por: 'Portuguese',
  nld: 'Dutch',
  pol: 'Polish',
  rus: 'Russian',
  ukr: 'Ukrainian',
  jpn: 'Japanese',
  kor: 'Korean',
  chi_sim: 'Chinese (simplified)',
  chi_tra: 'Chinese (traditional)',
};

function ocrLanguageName(code: string): string {
  return NAMES[code] ?? code;
}

export function OcrLanguageSetting() {
  const { settings, updateSettings } = useStatus();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const available = settings?.ocrLanguagesAvailable ?? [];
  const current = settings?.ocrLanguages[0] ?? '';

  const choose = async (code: string) => {
    setError(null);
    setBusy(true);
    try {
      await updateSettings({ ocrLanguages: [code] });
    } catch (err) {
      setError(`Could not change the OCR language: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="setting-row">
      <div>
        <label htmlFor="settings-ocr-language" className="setting-row__label">
          OCR language
        </label>
        <p className="setting-row__hint">
          {available.length === 0
            ? 'No OCR language data is installed: scans and pictures are indexed without their text.'
            : `Scans and pictures are read in this language, on this computer. It applies to files indexed from now on. ${
                available.length === 1
                  ? 'Only this language is installed.'
                  : `${available.length} languages are installed.`
              }`}
        </p>
        {error ? (
          <p className="setting-row__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <select
        id="settings-ocr-language"
        className="input"
        value={current}
        disabled={!settings || busy || available.length === 0}
        onChange={(e) => void choose(e.target.value)}
      >
        {available.map((code) => (
          <option key={code} value={code}>
            {ocrLanguageName(code)}
          </option>
        ))}
      </select>
    </div>
  );
}
