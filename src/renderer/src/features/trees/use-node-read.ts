/**
 * A node's text for the node pane (trees.read), refetched on `trees.changed`. A truncated read goes on
 * with "Read on": the next page starts at nextLine (as fromLine) and is added below, so the line
 * numbers stay those of the document.
 */
import { useEffect, useState } from 'react';
import { useAction } from '../../hooks/useAction.ts';
import { useCall } from '../../hooks/useCall.ts';
import { call } from '../../lib/api.ts';

export type TextSegment = { start: number; text: string; numbered: boolean };
type More = { segments: TextSegment[]; truncated: boolean; nextLine: number | null };

export function useNodeRead(tree: string, node: string) {
  const read = useCall('trees.read', { tree, node }, { refetchOn: ['trees.changed'] });
  const [more, setMore] = useState<More | null>(null);
  const data = read.data;

  // A refetched first page starts the reading again.
  useEffect(() => {
    void data;
    setMore(null);
  }, [data]);

  const nextLine = more ? more.nextLine : (data?.nextLine ?? null);
  const readOn = useAction(async () => {
    if (nextLine === null) return;
    const page = await call('trees.read', { tree, node, fromLine: nextLine });
    setMore((prev) => ({
      segments: [
        ...(prev?.segments ?? []),
        { start: page.citation.lineStart, text: page.text, numbered: page.lineNumbers },
      ],
      truncated: page.truncated,
      nextLine: page.nextLine,
    }));
  });

  const segments: TextSegment[] = data
    ? [
        { start: data.citation.lineStart, text: data.text, numbered: data.lineNumbers },
        ...(more?.segments ?? []),
      ]
    : [];
  const truncated = more ? more.truncated : (data?.truncated ?? false);
  return { read, segments, truncated, nextLine, readOn };
}
