export { MATRIX_WORKLOADS, MATRIX_LOADS, MATRIX_GATEWAYS, MATRIX_BASELINES, matrixCells } from './cells.js';
export type { MatrixWorkload, MatrixCell } from './cells.js';
export { judgeCell, MATRIX_RULES } from './judge.js';
export type { CellFigures, CellVerdict, MatrixRules, ReuseCheck } from './judge.js';
export { runMatrix } from './run.js';
export type { MatrixOptions, CellResult } from './run.js';
export { formatMatrix, formatCellRow, MATRIX_HEADER } from './format.js';
