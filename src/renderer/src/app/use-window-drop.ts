/**
 * The whole window is the drop target for files and folders from the OS. The overlay shows while files
 * are dragged over it; nested elements fire enter/leave pairs, so a depth counter says when the drag
 * really left the window.
 */
import { type DragEvent, useRef, useState } from 'react';
import type { DroppedFile } from '../lib/api.ts';
import { dragHasFiles, resolveDropItems, takeDropItems } from '../lib/drop.ts';
import type { Notice } from './app-context.ts';
import { errorText } from './use-shell.ts';

export type WindowDrop = {
  dragging: boolean;
  onDragEnter: (e: DragEvent) => void;
  onDragOver: (e: DragEvent) => void;
  onDragLeave: () => void;
  onDrop: (e: DragEvent) => void;
};

export function useWindowDrop(
  addFiles: (files: DroppedFile[], source: string) => Promise<void>,
  notify: (text: string, tone?: Notice['tone']) => void,
): WindowDrop {
  const [dragging, setDragging] = useState(false);
  const dragDepth = useRef(0);

  const onDragEnter = (e: DragEvent) => {
    if (!dragHasFiles(e.dataTransfer)) return;
    e.preventDefault();
    dragDepth.current++;
    setDragging(true);
  };
  const onDragOver = (e: DragEvent) => {
    if (!dragHasFiles(e.dataTransfer)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragging(false);
  };
  const onDrop = (e: DragEvent) => {
    dragDepth.current = 0;
    setDragging(false);
    if (!dragHasFiles(e.dataTransfer)) return;
    e.preventDefault();
    // Taken now: the DataTransfer is emptied once the event returns (lib/drop.ts).
    const pending = takeDropItems(e.dataTransfer);
    void resolveDropItems(pending)
      .then((files) => (files.length ? addFiles(files, 'Dropped files') : notify('The drop held no files')))
      .catch((err: unknown) => notify(`Could not read the dropped files: ${errorText(err)}`, 'error'));
  };

  return { dragging, onDragEnter, onDragOver, onDragLeave, onDrop };
}
