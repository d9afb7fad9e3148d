/**
 * docs/performance.md and docs/decisions.md are references: they say what holds today. Earlier
 * figures, and the order in which things changed, are the git history's. A dated row or a phrase of
 * history makes them grow back into a diary, so this test refuses both.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const DOCS = path.resolve(__dirname, '../../../docs');
const read = (name: string): string => readFileSync(path.join(DOCS, name), 'utf8');

/** MCP protocol revisions and schema versions are names written as dates, not dates of a run. */
const VERSION_NAMES = /\b(?:2025-06-18|2025-11-25|2026-07-28|2025-12-11)\b/g;
const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

/** Phrases that tell a story of runs or changes rather than what holds. */
const HISTORY: readonly RegExp[] = [
  /\bwas\b[^.]*\bnow\b/i,
  /\bnow\b/i,
  /\bfrom [\d.,]+ [^.;]*\bto [\d.,]+/i,
  /\d[\d.,]*\s*(?:ms|s|%|\/s)?\s*→\s*\d/,
  /\blast run\b/i,
  /\blatest run\b/i,
  /\bthis stop\b/i,
  /\bstop \d+\b/i,
  /\bsession \d+\b/i,
  /\bprevious run\b/i,
  /\bthe run before\b/i,
  /\bused to\b/i,
  /\bno longer\b/i,
  /\bre-taken\b/i,
  /\bearlier runs?\b/i,
  /\blater sets?\b/i,
  /\bbefore this\b/i,
  /\bwas tried\b/i,
  /\bin this file's history\b/i,
  /\bwas changed\b/i,
];

function dates(line: string): string[] {
  return line.replace(VERSION_NAMES, '').match(DATE) ?? [];
}

function historyPhrases(text: string): string[] {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => HISTORY.filter((re) => re.test(line)).map((re) => `line ${i + 1}: ${re} in "${line.trim()}"`));
}

interface Section {
  heading: string;
  lines: { no: number; text: string }[];
}

function sections(text: string): Section[] {
  const out: Section[] = [{ heading: '(top)', lines: [] }];
  text.split('\n').forEach((text, i) => {
    if (/^#{1,6} /.test(text)) out.push({ heading: text, lines: [] });
    out[out.length - 1]!.lines.push({ no: i + 1, text });
  });
  return out;
}

/** The lines of a section where a date may stand: its heading and the first line of text after it. */
function headLines(section: Section): Set<number> {
  const [heading, ...rest] = section.lines;
  const first = rest.find((l) => l.text.trim() !== '');
  return new Set([heading?.no, first?.no].filter((n): n is number => n !== undefined));
}

describe('docs/performance.md', () => {
  const doc = read('performance.md');

  it('dates a section only at its head, once', () => {
    const misplaced = sections(doc).flatMap((section) => {
      const head = headLines(section);
      const dated = section.lines.filter((l) => dates(l.text).length > 0);
      const count = dated.reduce((n, l) => n + dates(l.text).length, 0);
      const wrong = dated.filter((l) => !head.has(l.no)).map((l) => `line ${l.no}: "${l.text.trim()}"`);
      return count > 1 ? [...wrong, `${section.heading}: ${count} dates`] : wrong;
    });
    expect(misplaced).toEqual([]);
  });

  it('says what holds, with no phrase of history', () => {
    expect(historyPhrases(doc)).toEqual([]);
  });
});

describe('docs/decisions.md', () => {
  const doc = read('decisions.md');

  it('carries no date', () => {
    const dated = doc
      .split('\n')
      .map((text, i) => ({ no: i + 1, text }))
      .filter((l) => dates(l.text).length > 0)
      .map((l) => `line ${l.no}: "${l.text.trim()}"`);
    expect(dated).toEqual([]);
  });

  it('says what holds, with no phrase of history', () => {
    expect(historyPhrases(doc)).toEqual([]);
  });
});

describe('docs/*.md', () => {
  it('name no working session or stop', () => {
    const named = readdirSync(DOCS)
      .filter((f) => f.endsWith('.md'))
      .flatMap((f) =>
        read(f)
          .split('\n')
          .map((text, i) => ({ where: `${f}:${i + 1}`, text }))
          .filter((l) => /\b(?:session|stop) \d+\b|\bthis (?:session|stop)\b/i.test(l.text))
          .map((l) => `${l.where}: "${l.text.trim()}"`),
      );
    expect(named).toEqual([]);
  });
});
