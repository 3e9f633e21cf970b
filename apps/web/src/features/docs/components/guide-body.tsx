import type { Block } from '../lib/guides';
import { ScrollX } from '@/components/ui/scroll-x';

/** A guide's blocks as paragraphs, lists and tables. */
export function GuideBody({ blocks, title }: { blocks: Block[]; title: string }) {
  return (
    <div className="space-y-3 text-sm leading-relaxed">
      {blocks.map((block, i) =>
        'p' in block ? (
          <p key={i}>{block.p}</p>
        ) : 'list' in block ? (
          <ul key={i} className="list-disc space-y-1 pl-5">
            {block.list.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        ) : (
          <ScrollX key={i} label={title}>
            <table className="w-full border-collapse text-left">
              <caption className="sr-only">{title}</caption>
              <thead>
                <tr>
                  {block.table.head.map((h) => (
                    <th key={h} scope="col" className="border-b bg-muted/50 px-2 py-1.5 font-semibold">
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {block.table.rows.map((row, r) => (
                  <tr key={r}>
                    {row.map((cell, c) => (
                      <td key={c} className="border-b px-2 py-1.5 align-top">
                        {cell}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollX>
        ),
      )}
    </div>
  );
}
