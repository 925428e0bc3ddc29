/**
 * Calibration: a raw similarity (cosine of TF-IDF vectors, 0..1) becomes a confidence in
 * 0..1 by a logistic curve fitted on the development set (test/fixtures/understand): the
 * midpoint is where in-scope and out-of-scope messages' best similarities cross.
 */

/** Similarity at which confidence is 0.5. */
export const SIMILARITY_MIDPOINT = 0.33;
/** Steepness of the curve. */
const SLOPE = 14;

/** The confidence of a raw similarity. */
export function calibrate(similarity: number): number {
  if (similarity <= 0) return 0;
  const c = 1 / (1 + Math.exp(-SLOPE * (similarity - SIMILARITY_MIDPOINT)));
  return Math.round(c * 1000) / 1000;
}
