import { z } from 'zod';

/** A customer the studio plays: a contact of the sandbox. */
export interface Customer {
  readonly phone: string;
  readonly name: string;
}

/** Input of "add a customer" (both fields optional). */
export const NewCustomer = z.strictObject({
  name: z.string().trim().min(1).max(60).optional(),
  phone: z
    .string()
    .regex(/^\+[1-9]\d{7,14}$/, { error: 'phone must be an E.164 number like +15551230004' })
    .optional(),
});

/** The customers of a studio session, in the order they were added. */
export class CustomerBook {
  readonly #list: Customer[];

  constructor(initial: readonly Customer[]) {
    this.#list = [...initial];
  }

  all(): readonly Customer[] {
    return this.#list;
  }

  find(phone: string): Customer | undefined {
    return this.#list.find((c) => c.phone === phone);
  }

  /** Adds a customer; a missing phone is the next free +1555123xxxx, a missing name "Customer N". */
  add(input: z.infer<typeof NewCustomer>): Customer {
    if (input.phone !== undefined && this.find(input.phone) !== undefined)
      throw new RangeError(`a customer with phone ${input.phone} already exists`);
    let phone = input.phone;
    for (let n = 1; phone === undefined && n < 10_000; n++) {
      const candidate = `+1555123${String(n).padStart(4, '0')}`;
      if (this.find(candidate) === undefined) phone = candidate;
    }
    if (phone === undefined) throw new RangeError('no free phone number left');
    const customer = { phone, name: input.name ?? `Customer ${this.#list.length + 1}` };
    this.#list.push(customer);
    return customer;
  }
}
