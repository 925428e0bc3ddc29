/** A stretch of the message (`start` inclusive, `end` exclusive, UTF-16 offsets). */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** Whether two spans share a character. */
export function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

/** Spans of the message already taken by a value, so no other slot reads them again. */
export class Claims {
  readonly #spans: Span[] = [];

  /** Whether `span` touches a claimed span. */
  taken(span: Span): boolean {
    return this.#spans.some((s) => overlaps(s, span));
  }

  claim(span: Span): void {
    this.#spans.push(span);
  }

  /** The start of the first claimed span at or after `from`, else `limit`. */
  nextStart(from: number, limit: number): number {
    let next = limit;
    for (const s of this.#spans) if (s.start >= from && s.start < next) next = s.start;
    return next;
  }
}
