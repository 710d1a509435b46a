/**
 * A 64-bit hash as two unsigned 32-bit halves. JavaScript's bitwise operators work on 32 bits, and the write path
 * turns every hit into a register update, where BigInt arithmetic would cost an order of magnitude more.
 */
export interface Hash64 {
  /** Bits 63..32, an unsigned 32-bit integer. */
  readonly hi: number;
  /** Bits 31..0, an unsigned 32-bit integer. */
  readonly lo: number;
}
