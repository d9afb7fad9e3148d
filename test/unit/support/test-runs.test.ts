import { saysAlone, slowestFiles, summaryLine, type JestJson } from '../../support/test-runs';

const report = (over: Partial<JestJson>): JestJson => ({
  numPassedTests: 0,
  numFailedTests: 0,
  numPendingTests: 0,
  numTotalTestSuites: 0,
  numFailedTestSuites: 0,
  testResults: [],
  ...over,
});

describe('the test runner', () => {
  it('runs a file alone only when its first comment says @run-alone', () => {
    expect(saysAlone('/**\n * Freezes the stack.\n * @run-alone it stops the shared servers\n */\nimport x from "y";')).toBe(true);
    expect(saysAlone('/** @run-alone */\n')).toBe(true);
    expect(saysAlone('/**\n * Mentions @run-alones in passing.\n */')).toBe(false);
    expect(saysAlone('import x from "y";\n/**\n * @run-alone\n */')).toBe(false);
    expect(saysAlone('// @run-alone\n')).toBe(false);
  });

  it('lists the slowest files of every run, slowest first, relative to the root', () => {
    const runs = [
      report({ testResults: [{ name: '/r/test/a.test.ts', startTime: 0, endTime: 2_000 }] }),
      report({
        testResults: [
          { name: '/r/test/b.test.ts', startTime: 1_000, endTime: 9_000 },
          { name: '/r/test/c.test.ts', startTime: 0, endTime: 500 },
        ],
      }),
    ];
    expect(slowestFiles(runs, '/r', 2)).toEqual([
      { file: 'test/b.test.ts', seconds: 8 },
      { file: 'test/a.test.ts', seconds: 2 },
    ]);
  });

  it('closes with the plain line CI reads, summed over the runs, a file that did not load counted as a failure', () => {
    expect(summaryLine([report({ numPassedTests: 10 }), report({ numPassedTests: 5 })])).toBe('Tests: 15 passed, 0 failed');
    expect(summaryLine([report({ numPassedTests: 10, numFailedTests: 2, numFailedTestSuites: 1 }), report({ numPendingTests: 3 })])).toBe(
      'Tests: 10 passed, 2 failed, 3 skipped',
    );
    expect(summaryLine([report({ numPassedTests: 4, numFailedTestSuites: 1 })])).toBe('Tests: 4 passed, 1 failed');
  });
});
