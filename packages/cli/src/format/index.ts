export { formatElapsed } from './elapsed.js';
export { decimalsForStep, formatCost, formatDollarsForStep, formatPerHour } from './money.js';
export { plural } from './plural.js';
export { type AxisTicks, DecimalSteps, hourTicks, niceTicks } from './ticks.js';
export { wrapText } from './wrap.js';
