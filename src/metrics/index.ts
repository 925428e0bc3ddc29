export { createMetrics, type BotMetrics, type MetricsOptions } from './create-metrics.js';
export { sendOutcomeLabel, type SendOutcomeLabel } from './send-outcome-label.js';
export { boundedLabel, oneOf } from './bounded-label.js';
