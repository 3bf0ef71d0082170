import type { RefObject } from 'react';
import type { DroppedFile } from '../../lib/api.ts';
import { filesFromInput } from '../../lib/drop.ts';

export type FilePickersProps = {
  fileInput: RefObject<HTMLInputElement | null>;
  folderInput: RefObject<HTMLInputElement | null>;
  onPicked: (files: DroppedFile[], source: string) => void;
};

/**
 * The hidden inputs behind "Add files…", "Add a folder…" and "Choose files…". Each is emptied after a
 * pick, so picking the same file again still counts.
 */
export function FilePickers({ fileInput, folderInput, onPicked }: FilePickersProps) {
  const picked = (list: FileList | null, source: string) => {
    const files = filesFromInput(list);
    if (files.length) onPicked(files, source);
  };
  return (
    <>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        aria-label="Choose files to add"
        onChange={(e) => {
          picked(e.target.files, 'Chosen files');
          e.target.value = '';
        }}
      />
      <input
        ref={(el) => {
          folderInput.current = el;
          // Not a React prop: set as the attribute Chromium and Electron read to pick a folder.
          el?.setAttribute('webkitdirectory', '');
        }}
        type="file"
        multiple
        hidden
        aria-label="Choose a folder to add"
        onChange={(e) => {
          picked(e.target.files, 'Chosen folder');
          e.target.value = '';
        }}
      />
    </>
  );
}
