// The report page: one self-contained HTML file that embeds the SVG charts and shows the Markdown tables (rendered
// from the same text as tables.md, so the two never disagree). No scripts, no external resources. Pure. Its colours
// are the editor's theme in a webview (the --vscode-* variables, the charts' inks too) and light elsewhere; it fits a
// narrow panel: charts scale down, tables scroll in their own box, long words wrap.
import { CHART_THEME_CSS, escapeXml } from './svg.js';
import { FIGURES_MARKER } from './tables.js';

/** Renders the subset of Markdown that tables.ts writes: headings, paragraphs and pipe tables. */
export function renderMarkdown(markdown: string): string {
  const out: string[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; ) {
    const line = lines[i]!;
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const level = heading[1]!.length + 1; // the page's own title is the h1
      out.push(`<h${level}>${escapeXml(heading[2]!)}</h${level}>`);
      i++;
      continue;
    }
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      let align: string[] = [];
      while (i < lines.length && lines[i]!.startsWith('|')) {
        const cells = splitRow(lines[i]!);
        if (cells.every((c) => /^:?-{3,}:?$/.test(c))) align = cells.map((c) => (c.endsWith(':') ? 'right' : 'left'));
        else rows.push(cells);
        i++;
      }
      const [head, ...body] = rows;
      const cell = (tag: string, text: string, j: number) => `<${tag}${align[j] === 'right' ? ' class="num"' : ''}>${escapeXml(text)}</${tag}>`;
      out.push('<table>');
      if (head) out.push(`<thead><tr>${head.map((c, j) => cell('th', c, j)).join('')}</tr></thead>`);
      out.push(`<tbody>${body.map((r) => `<tr>${r.map((c, j) => cell('td', c, j)).join('')}</tr>`).join('\n')}</tbody>`);
      out.push('</table>');
      continue;
    }
    if (line.trim() === '' || /^<!--.*-->$/.test(line.trim())) {
      i++;
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && lines[i]!.trim() !== '' && !lines[i]!.startsWith('|') && !/^#{1,4}\s/.test(lines[i]!)) para.push(lines[i++]!);
    out.push(`<p>${escapeXml(para.join(' '))}</p>`);
  }
  return out.join('\n');
}

function splitRow(line: string): string[] {
  const inner = line.trim().replace(/^\|/, '').replace(/\|$/, '');
  const cells: string[] = [];
  let current = '';
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '\\' && inner[i + 1] === '|') {
      current += '|';
      i++;
    } else if (inner[i] === '|') {
      cells.push(current.trim());
      current = '';
    } else current += inner[i];
  }
  cells.push(current.trim());
  return cells;
}

export interface ReportFigure {
  /** The chart's file name beside the page. */
  file: string;
  caption: string;
  svg: string;
}

/** The page: a title, the tables, and the figures (inline SVG, each linked to its file) where the Markdown marks them. */
export function reportHtml(title: string, figures: readonly ReportFigure[], markdown: string): string {
  const body = markdown.replace(/^# .*\n/, '');
  const at = body.indexOf(FIGURES_MARKER);
  const [before, after] = at >= 0 ? [body.slice(0, at), body.slice(at + FIGURES_MARKER.length)] : ['', body];
  const figureHtml = figures
    .map((f) => `<figure id="${escapeXml(f.file)}">\n${f.svg.trim()}\n<figcaption>${escapeXml(f.caption)} (<a href="${escapeXml(f.file)}">${escapeXml(f.file)}</a>)</figcaption>\n</figure>`)
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeXml(title)}</title>
<style>
body { font-family: var(--vscode-font-family, system-ui, -apple-system, "Segoe UI", Helvetica, Arial, sans-serif); margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: var(--vscode-foreground, #222); background: var(--vscode-editor-background, #fff); }
a { color: var(--vscode-textLink-foreground, #0645ad); }
h1 { font-size: 1.5rem; } h2 { font-size: 1.2rem; margin-top: 2rem; } h3 { font-size: 1rem; }
h1, h2, h3, p, figcaption { overflow-wrap: anywhere; }
figure { margin: 1.5rem 0; overflow-x: auto; } figcaption { color: var(--vscode-descriptionForeground, #555); font-size: 0.9rem; }
svg { max-width: 100%; height: auto; border-radius: 4px; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.85rem; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid var(--vscode-panel-border, #ddd); padding: 0.2rem 0.5rem; } th { background: var(--vscode-editorWidget-background, #f5f5f5); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
${CHART_THEME_CSS}
</style>
</head>
<body>
<h1>${escapeXml(title)}</h1>
${renderMarkdown(before)}
${figureHtml}
${renderMarkdown(after)}
</body>
</html>
`;
}
