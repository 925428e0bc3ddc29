/**
 * A binary min-heap ordered by a compare function. Used by the memory store for timers
 * (with lazy deletion: stale entries are skipped by the caller).
 * @example
 * const heap = new MinHeap<number>((a, b) => a - b);
 * heap.push(3); heap.push(1);
 * heap.pop(); // 1
 */
export class MinHeap<T> {
  readonly #items: T[] = [];
  readonly #compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.#compare = compare;
  }

  /** Number of entries, stale ones included. */
  get size(): number {
    return this.#items.length;
  }

  /** The smallest entry, without removing it. */
  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.#compare(items[i] as T, items[parent] as T) >= 0) break;
      this.#swap(i, parent);
      i = parent;
    }
  }

  /** Removes and returns the smallest entry. */
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      this.#siftDown(0);
    }
    return top;
  }

  /** Keeps only the entries for which `keep` is true (used to drop stale entries in bulk). */
  retain(keep: (item: T) => boolean): void {
    const kept = this.#items.filter(keep);
    this.#items.length = 0;
    for (const item of kept) this.push(item);
  }

  #siftDown(start: number): void {
    const items = this.#items;
    let i = start;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < items.length && this.#compare(items[left] as T, items[smallest] as T) < 0) {
        smallest = left;
      }
      if (right < items.length && this.#compare(items[right] as T, items[smallest] as T) < 0) {
        smallest = right;
      }
      if (smallest === i) return;
      this.#swap(i, smallest);
      i = smallest;
    }
  }

  #swap(a: number, b: number): void {
    const items = this.#items;
    const tmp = items[a] as T;
    items[a] = items[b] as T;
    items[b] = tmp;
  }
}
