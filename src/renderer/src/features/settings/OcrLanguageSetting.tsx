/**
 * Settings → Indexing → OCR languages ([O2] in docs/OCR.md): what scans and pictures are read in,
 * one to three of the languages whose data is installed, the first checked the main one. Applies
 * to files indexed from then on.
 */
import { useState } from 'react';
import { OCR_LANGUAGES_MAX } from '#shared/constants.ts';
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

/** The most languages one OCR run reads (src/shared/constants.ts OCR_LANGUAGES_MAX). */
const MOST = OCR_LANGUAGES_MAX;

export function OcrLanguageSetting() {
  const { settings, updateSettings } = useStatus();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const available = settings?.ocrLanguagesAvailable ?? [];
  const chosen = settings?.ocrLanguages ?? [];

  const toggle = async (code: string, on: boolean) => {
    setError(null);
    setBusy(true);
    try {
      // A language checked joins the end: the first one stays the main language of the scans.
      await updateSettings({ ocrLanguages: on ? [...chosen, code] : chosen.filter((c) => c !== code) });
    } catch (err) {
      setError(`Could not change the OCR languages: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const names = chosen.map(ocrLanguageName);
  return (
    <fieldset className="setting-row setting-row--fieldset" aria-describedby="settings-ocr-hint">
      {/* The group's name for assistive technology; the same words show as the row's label. */}
      <legend className="visually-hidden">OCR languages</legend>
      <div>
        <span className="setting-row__label" aria-hidden="true">
          OCR languages
        </span>
        <p id="settings-ocr-hint" className="setting-row__hint">
          {available.length === 0
            ? 'No OCR language data is installed: scans and pictures are indexed without their text.'
            : `Scans and pictures are read in ${names.join(' and ') || 'no language'}, on this computer${
                chosen.length > 1 ? ' (each one more makes OCR slower)' : ''
              }. It applies to files indexed from now on. Up to ${MOST} at once; at least one stays checked.`}
        </p>
        {error ? (
          <p className="setting-row__error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <div className="setting-row__choices">
        {available.map((code) => {
          const on = chosen.includes(code);
          const locked = on ? chosen.length === 1 : chosen.length >= MOST;
          return (
            <label key={code} className="setting-row__choice">
              <input
                type="checkbox"
                checked={on}
                disabled={!settings || busy || locked}
                onChange={(e) => void toggle(code, e.target.checked)}
              />{' '}
              {ocrLanguageName(code)}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}
