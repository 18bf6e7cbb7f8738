// Prints vitest's JSON report as the single line CI reads: "N passed, M failed".
import { existsSync, readFileSync } from 'node:fs'

const file = process.argv[2]
if (!file || !existsSync(file)) {
  console.log('0 passed, 1 failed')
  process.exit(0)
}
const report = JSON.parse(readFileSync(file, 'utf8'))
const failed = report.numFailedTests + (report.numFailedTestSuites > 0 && report.numFailedTests === 0 ? report.numFailedTestSuites : 0)
const skipped = report.numPendingTests + report.numTodoTests
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`)
