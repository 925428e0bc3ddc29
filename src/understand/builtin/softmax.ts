/**
 * A multinomial logistic regression over the intents' example vectors, trained when the
 * index is built (full-batch gradient descent from zero weights: deterministic, a few
 * milliseconds for a few hundred examples). It learns which words tell intents apart
 * ("need" in every intent's examples weighs nothing; "cancel" a lot), where similarity to
 * the nearest example cannot; a message with no word it knows gets the same probability
 * for every class, so a low one.
 */

/** A sparse vector: feature name → weight. */
export type SparseVector = ReadonlyMap<string, number>;

/** Training settings. */
export interface SoftmaxOptions {
  /** L2 penalty on the weights. */
  readonly l2: number;
  /** Gradient descent steps. */
  readonly steps: number;
  /** Step size. */
  readonly rate: number;
  /** Momentum (heavy ball): the share of the last step carried into the next. */
  readonly momentum: number;
}

export const DEFAULT_SOFTMAX: SoftmaxOptions = {
  l2: 0,
  steps: 150,
  rate: 3,
  momentum: 0.9,
};

/** Gradient terms smaller than this (per example weight) are skipped: they move nothing. */
const NEGLIGIBLE = 1e-7;

/** A sparse vector as parallel arrays: column indexes and their values. */
interface Row {
  readonly columns: Int32Array;
  readonly values: Float64Array;
}

/** A trained model: per class, a weight per feature and a bias. */
export class SoftmaxModel {
  readonly #classes: number;
  readonly #columns = new Map<string, number>();
  readonly #weights: Float64Array;
  readonly #bias: Float64Array;

  /**
   * Trains on `vectors` labelled with class indexes `labels` (0..classes-1). Each class
   * weighs the same in the loss, however many examples it has.
   */
  constructor(
    vectors: readonly SparseVector[],
    labels: readonly number[],
    classes: number,
    options: SoftmaxOptions = DEFAULT_SOFTMAX,
  ) {
    this.#classes = classes;
    for (const v of vectors)
      for (const name of v.keys()) {
        if (!this.#columns.has(name)) this.#columns.set(name, this.#columns.size);
      }
    const width = this.#columns.size;
    this.#weights = new Float64Array(classes * width);
    this.#bias = new Float64Array(classes);
    const rows = vectors.map((v) => this.#row(v));
    const counts = new Float64Array(classes);
    for (const l of labels) counts[l] = (counts[l] ?? 0) + 1;
    const present = counts.filter((c) => c > 0).length;
    const sampleWeight = labels.map((l) => 1 / ((counts[l] ?? 1) * present));
    const gradW = new Float64Array(classes * width);
    const gradB = new Float64Array(classes);
    const velocityW = new Float64Array(classes * width);
    const velocityB = new Float64Array(classes);
    const p = new Float64Array(classes);
    const { rate, momentum, l2 } = options;
    for (let step = 0; step < options.steps; step++) {
      gradW.fill(0);
      gradB.fill(0);
      for (let r = 0; r < rows.length; r++) {
        const row = rows[r] as Row;
        this.#probabilities(row, p);
        const label = labels[r] as number;
        const sw = sampleWeight[r] as number;
        for (let c = 0; c < classes; c++) {
          const g = ((p[c] as number) - (c === label ? 1 : 0)) * sw;
          // A class the row is already sure of (or sure against) has nothing to learn here.
          if (g < NEGLIGIBLE && g > -NEGLIGIBLE) continue;
          gradB[c] = (gradB[c] as number) + g;
          const base = c * width;
          for (let k = 0; k < row.columns.length; k++) {
            const at = base + (row.columns[k] as number);
            gradW[at] = (gradW[at] as number) + g * (row.values[k] as number);
          }
        }
      }
      for (let i = 0; i < gradW.length; i++) {
        const w = this.#weights[i] as number;
        const v = momentum * (velocityW[i] as number) - rate * ((gradW[i] as number) + l2 * w);
        velocityW[i] = v;
        this.#weights[i] = w + v;
      }
      for (let c = 0; c < classes; c++) {
        const v = momentum * (velocityB[c] as number) - rate * (gradB[c] as number);
        velocityB[c] = v;
        this.#bias[c] = (this.#bias[c] as number) + v;
      }
    }
  }

  /** `vector` as parallel arrays of known columns and their values. */
  #row(vector: SparseVector): Row {
    const columns: number[] = [];
    const values: number[] = [];
    for (const [name, x] of vector) {
      const j = this.#columns.get(name);
      if (j === undefined) continue;
      columns.push(j);
      values.push(x);
    }
    return { columns: Int32Array.from(columns), values: Float64Array.from(values) };
  }

  #probabilities(row: Row, out: Float64Array): void {
    const width = this.#columns.size;
    let max = -Infinity;
    for (let c = 0; c < this.#classes; c++) {
      let z = this.#bias[c] as number;
      const base = c * width;
      for (let k = 0; k < row.columns.length; k++) {
        z +=
          (this.#weights[base + (row.columns[k] as number)] as number) * (row.values[k] as number);
      }
      out[c] = z;
      if (z > max) max = z;
    }
    let sum = 0;
    for (let c = 0; c < this.#classes; c++) {
      const e = Math.exp((out[c] as number) - max);
      out[c] = e;
      sum += e;
    }
    for (let c = 0; c < this.#classes; c++) out[c] = (out[c] as number) / sum;
  }

  /** The probability of each class for `vector` (features unseen in training count nothing). */
  predict(vector: SparseVector): Float64Array {
    const out = new Float64Array(this.#classes);
    this.#probabilities(this.#row(vector), out);
    return out;
  }
}
